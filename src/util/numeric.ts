/** Numeric special functions shared by the workload models and the statistics. */

/**
 * ln Γ(x) for x > 0: Lanczos approximation with the six Numerical Recipes
 * coefficients (relative error below 2e-10). The Lublin model's gamma CDF
 * was calibrated with this form, so its generated workloads depend on it bit
 * for bit; Student-t quantiles need far less precision.
 */
export function logGamma(x: number): number {
  const c = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.000000000190015;
  for (const ci of c) ser += ci / ++y;
  return -tmp + Math.log((2.5066282746310005 * ser) / x);
}
