import { readEveryScreen } from './read-every-screen'
import { DESKTOP } from './stack'

readEveryScreen('a desktop', DESKTOP)
