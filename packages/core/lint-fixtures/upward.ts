// A deliberate upward import: linted as a file of protocol/, it reaches up into the simulator.
import { Simulator } from '../simulator/Simulator.ts'

export const engine = Simulator
