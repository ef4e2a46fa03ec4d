/**
 * CPython's `repr(float)` for a finite number: the shortest digits that round-trip (as JavaScript
 * also finds them), positional while the decimal point sits within 16 digits (`1e+16` and `1e-05`
 * switch to exponent form), and `.0` on a whole value.
 */
export function pyFloatRepr(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`pyFloatRepr: ${x} is not finite`)
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const sign = x < 0 ? '-' : ''
  const [mantissa = '', exponent = '0'] = Math.abs(x).toExponential().split('e')
  const digits = mantissa.replace('.', '')
  const exp = Number(exponent)
  const point = exp + 1
  if (point > 16 || point <= -4) {
    const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    return `${sign}${lead}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}
