// A deliberate import cycle (with first.ts): the layer fence must reject it.
import { first } from './first.ts'

export const second = (): number => (first.length > 0 ? 1 : 0)
