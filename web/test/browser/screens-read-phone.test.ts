import { readEveryScreen } from './read-every-screen'
import { PHONE } from './stack'

readEveryScreen('a phone', PHONE)
