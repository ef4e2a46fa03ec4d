// A deliberately impure domain file: the lint fence must reject every line below.
import { readFileSync } from 'node:fs'

export const wallClock = (): number => Date.now()
export const coin = (): boolean => Math.random() < 0.5
export const config = (): string => readFileSync('/etc/hostname', 'utf8')
