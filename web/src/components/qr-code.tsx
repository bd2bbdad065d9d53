import { useMemo } from 'react'
import { encode } from 'uqr'

/** A QR code drawn here from the text, so the address never travels to a third party to be pictured. */
export function QrCode({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { size, path } = useMemo(() => {
    const { data, size } = encode(text, { ecc: 'M', border: 2 })
    let path = ''
    data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) path += `M${x} ${y}h1v1h-1z`
      }),
    )
    return { size, path }
  }, [text])
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-testid={testId}
      data-text={text}
    >
      <path d={path} fill="#000" />
    </svg>
  )
}
