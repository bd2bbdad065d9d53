/** The spinner that holds a screen's or a panel's place while it loads. */
export function LoadingBlock() {
  return (
    <div className="loading-block" aria-busy="true">
      <span className="spinner" />
    </div>
  )
}
