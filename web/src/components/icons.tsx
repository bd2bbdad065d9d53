import type { SVGProps } from 'react'

// Inline icons, so nothing is fetched from elsewhere; all draw with currentColor.

type IconProps = SVGProps<SVGSVGElement> & { size?: number }

function Svg({ size = 20, children, ...rest }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...rest}
    >
      {children}
    </svg>
  )
}

export const BackIcon = (props: IconProps) => (
  <Svg {...props} className="icon-flip-rtl">
    <path d="M15 5l-7 7 7 7" />
  </Svg>
)
export const ChevronIcon = (props: IconProps) => (
  <Svg {...props} className="icon-flip-rtl">
    <path d="M9 5l7 7-7 7" />
  </Svg>
)
export const SearchIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="11" cy="11" r="7" />
    <path d="M20 20l-3.5-3.5" />
  </Svg>
)
export const EyeIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </Svg>
)
export const EyeOffIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M3 3l18 18M10.6 5.1A10.6 10.6 0 0 1 12 5c6.4 0 10 7 10 7a17.8 17.8 0 0 1-3.2 4.1M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7a9.8 9.8 0 0 0 5.4-1.6" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
  </Svg>
)
export const GlobeIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
  </Svg>
)
export const HeadsetIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
    <rect x="3" y="14" width="4" height="6" rx="1.5" />
    <rect x="17" y="14" width="4" height="6" rx="1.5" />
    <path d="M19 20a3 3 0 0 1-3 2h-3" />
  </Svg>
)
export const MenuIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M4 6h16M4 12h16M4 18h10" />
  </Svg>
)
export const CloseIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Svg>
)
export const SunIcon = (props: IconProps) => (
  <Svg {...props}>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
  </Svg>
)
export const MoonIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
  </Svg>
)
export const BellIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.9 1.9 0 0 0 3.4 0" />
  </Svg>
)
export const EmptyIcon = (props: IconProps) => (
  <Svg {...props} strokeWidth={1.2}>
    <path d="M3 13l3-8h12l3 8v6a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z" />
    <path d="M3 13h5l1 2h6l1-2h5" />
  </Svg>
)
export const CheckIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M5 12l5 5 9-10" />
  </Svg>
)
export const AndroidIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M5 10h14v7a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2zM5 9a7 7 0 0 1 14 0zM8 3l1.5 2.5M16 3l-1.5 2.5M9 19v2.5M15 19v2.5M2.5 11v5M21.5 11v5" />
  </Svg>
)
export const AppleIcon = (props: IconProps) => (
  <Svg {...props}>
    <path d="M16.5 12.6c0-2.3 1.9-3.4 2-3.5a4.3 4.3 0 0 0-3.4-1.8c-1.4-.1-2.8.9-3.5.9s-1.8-.9-3-.8a4.5 4.5 0 0 0-3.8 2.3c-1.6 2.8-.4 7 1.2 9.3.8 1.1 1.7 2.4 2.9 2.3 1.1 0 1.6-.7 3-.7s1.8.7 3 .7 2-1.1 2.8-2.3a9.6 9.6 0 0 0 1.2-2.6 4 4 0 0 1-2.4-3.8zM14.2 5.6A4 4 0 0 0 15.1 2.7a4.1 4.1 0 0 0-2.7 1.4 3.9 3.9 0 0 0-1 2.8 3.4 3.4 0 0 0 2.8-1.3z" />
  </Svg>
)
export const CopyIcon = (props: IconProps) => (
  <Svg {...props}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V6a2 2 0 0 1 2-2h9" />
  </Svg>
)
export const SwapIcon = (props: IconProps) => (
  <Svg {...props} className="icon-flip-rtl">
    <path d="M7 7h12l-4-4M17 17H5l4 4" />
  </Svg>
)
export const LogoMark = ({ size = 28 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
    <rect width="32" height="32" rx="9" fill="var(--accent)" />
    <path
      d="M8 20l5-6 4 4 7-9"
      fill="none"
      stroke="#0b0e11"
      strokeWidth="2.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
    <circle cx="24" cy="9" r="2" fill="#0b0e11" />
  </svg>
)

// ---- tab bar: outlined when idle, filled when active ----

export function TabIcon({ name, active, size }: { name: string; active: boolean; size: number }) {
  const fill = active ? 'currentColor' : 'none'
  switch (name) {
    case 'home':
      return (
        <Svg size={size}>
          <path d="M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" fill={fill} />
        </Svg>
      )
    case 'market':
      return (
        <Svg size={size}>
          <rect x="3" y="12" width="4" height="8" rx="1" fill={fill} />
          <rect x="10" y="7" width="4" height="13" rx="1" fill={fill} />
          <rect x="17" y="3" width="4" height="17" rx="1" fill={fill} />
        </Svg>
      )
    case 'finance':
      return (
        <Svg size={size}>
          <circle cx="12" cy="12" r="9" fill={fill} />
          <path
            d="M15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .8-3 2s1.3 1.7 3 2 3 .8 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5M12 6v2M12 16v2"
            stroke={active ? 'var(--surface)' : 'currentColor'}
          />
        </Svg>
      )
    case 'fund':
      return (
        <Svg size={size}>
          <rect x="3" y="6" width="18" height="14" rx="2" fill={fill} />
          <path d="M3 10h18M16 15h2" stroke={active ? 'var(--surface)' : 'currentColor'} />
          <path d="M6 6l9-3 1 3" />
        </Svg>
      )
    default:
      return (
        <svg width={size} height={size} viewBox="0 0 53 53" aria-hidden="true">
          <circle cx="26.5" cy="26.5" r="26.5" fill="var(--accent)" />
          <path
            d="M17 31l6-7 5 5 8-10M31 19h5v5"
            fill="none"
            stroke="#0b0e11"
            strokeWidth="3"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      )
  }
}
