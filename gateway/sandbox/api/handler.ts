import type { CallBody, CallData, CallName, CallParams, CallQuery, Call } from '@tradegate/shared'
import type { User } from '../accounts/users'

export interface UploadedFile {
  field: string
  filename: string
  mimetype: string
  bytes: Buffer
}

export interface CallContext<N extends CallName> {
  user: Call<N>['auth'] extends true ? User : User | undefined
  query: CallQuery<N>
  body: CallBody<N>
  params: CallParams<N>
  /** multipart calls only */
  files: UploadedFile[]
  /** the language the request names (its language header), for content served in every language */
  language: string | undefined
}

export type Handler<N extends CallName> = (context: CallContext<N>) => CallData<N> | Promise<CallData<N>>

export type Handlers = { [N in CallName]: Handler<N> }
