// A deliberate import cycle (with second.ts): the layer fence must reject it.
import { second } from './second.ts'

export const first = (): number => second() + 1
