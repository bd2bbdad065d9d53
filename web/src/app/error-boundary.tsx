import { Component, type ErrorInfo, type ReactNode } from 'react'
import { Failure } from '../components/failure'

interface Props {
  children: ReactNode
  /** a new value (the next route) clears the failure */
  resetKey: string
}

/** A screen that throws while rendering, or whose file cannot load, shows a message and a retry, never a blank page. */
export class ErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null }

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  override componentDidUpdate(previous: Props) {
    if (previous.resetKey !== this.props.resetKey && this.state.error !== null) this.setState({ error: null })
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack)
  }

  private readonly retry = () => {
    // React keeps a failed lazy import's rejection, so a screen file that did not load needs a fresh page
    if (this.state.error instanceof TypeError) window.location.reload()
    else this.setState({ error: null })
  }

  override render() {
    if (this.state.error !== null) return <Failure error={this.state.error} onRetry={this.retry} />
    return this.props.children
  }
}
