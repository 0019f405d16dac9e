/**
 * Published reference values of the DFRS paper (Stillwell, Vivien & Casanova,
 * "Dynamic Fractional Resource Scheduling vs. Batch Scheduling", INRIA RR-7659,
 * 2011), read off its Tables 2-5. They are shown ONLY as labelled "published"
 *s beside what schedlab computes; no result is derived from them.
 * Algorithm names are canonical (parseAlgorithm) names; the paper's Table 3
 * writes "stretch-per/opt=max" for "/stretch-per/opt=max".
 */

/** avg, std, max of the degradation from bound over a trace set. */
export interface PublishedDegradation {
  avg: number;
  std: number;
  max: number;
}

/** The paper's three trace sets, as schedlab names them. */
export type PublishedTraceSet = 'hpc2n' | 'unscaled' | 'scaled';

/** Table 2: degradation from bound, 5-minute penalty; FCFS, EASY and 18 DFRS algorithms. */
export const PUBLISHED_TABLE2: Readonly<Record<string, Record<PublishedTraceSet, PublishedDegradation>>> = {
  "FCFS": { hpc2n: { avg: 3578.5, std: 3727.8, max: 21718.4 }, unscaled: { avg: 5457.2, std: 2958.5, max: 15102.7 }, scaled: { avg: 5869.3, std: 2789.1, max: 17403.3 } },
  "EASY": { hpc2n: { avg: 3041.9, std: 3438, max: 21317.4 }, unscaled: { avg: 4955.4, std: 2730.6, max: 14036.8 }, scaled: { avg: 5262, std: 2588.9, max: 14534.1 } },
  "Greedy */opt=min": { hpc2n: { avg: 949.8, std: 1828.5, max: 11778.4 }, unscaled: { avg: 2435, std: 2285.6, max: 11229.9 }, scaled: { avg: 3204.3, std: 2517.5, max: 19129.2 } },
  "GreedyP */opt=min": { hpc2n: { avg: 13.5, std: 68, max: 819.2 }, unscaled: { avg: 37.5, std: 156, max: 1204.9 }, scaled: { avg: 115.7, std: 644, max: 10354.2 } },
  "GreedyPM */opt=min": { hpc2n: { avg: 13.8, std: 68.2, max: 819.2 }, unscaled: { avg: 33.8, std: 154, max: 1321.7 }, scaled: { avg: 124, std: 673.5, max: 9598.8 } },
  "Greedy/per/opt=min": { hpc2n: { avg: 28.3, std: 24.9, max: 163.7 }, unscaled: { avg: 30.1, std: 10.2, max: 58.1 }, scaled: { avg: 29.3, std: 14.3, max: 153.2 } },
  "GreedyP/per/opt=min": { hpc2n: { avg: 18.5, std: 18.6, max: 152.4 }, unscaled: { avg: 20.1, std: 7.3, max: 38.1 }, scaled: { avg: 17.8, std: 9.6, max: 84.6 } },
  "GreedyPM/per/opt=min": { hpc2n: { avg: 18.4, std: 18.8, max: 158.7 }, unscaled: { avg: 20.2, std: 7.3, max: 38.1 }, scaled: { avg: 17.9, std: 9.8, max: 93 } },
  "Greedy */per/opt=min": { hpc2n: { avg: 24.3, std: 15.9, max: 81.6 }, unscaled: { avg: 30.4, std: 9.7, max: 65.7 }, scaled: { avg: 29.1, std: 12.3, max: 101.4 } },
  "GreedyP */per/opt=min": { hpc2n: { avg: 17.9, std: 19.6, max: 213.5 }, unscaled: { avg: 20.3, std: 6.8, max: 32 }, scaled: { avg: 17.9, std: 8.6, max: 89.9 } },
  "GreedyPM */per/opt=min": { hpc2n: { avg: 17.9, std: 19.3, max: 198.6 }, unscaled: { avg: 20.3, std: 6.9, max: 32 }, scaled: { avg: 17.9, std: 8.6, max: 89.9 } },
  "GreedyP/per/opt=min/minvt=600": { hpc2n: { avg: 8.9, std: 18.9, max: 152.4 }, unscaled: { avg: 5.9, std: 4.5, max: 38.1 }, scaled: { avg: 7.3, std: 8.5, max: 96.8 } },
  "GreedyPM/per/opt=min/minvt=600": { hpc2n: { avg: 8.8, std: 18.9, max: 158.7 }, unscaled: { avg: 5.9, std: 4.5, max: 38.1 }, scaled: { avg: 7.3, std: 8.1, max: 96.8 } },
  "GreedyP */per/opt=min/minvt=600": { hpc2n: { avg: 6.9, std: 14.2, max: 149.3 }, unscaled: { avg: 4.9, std: 2.9, max: 19.2 }, scaled: { avg: 6.1, std: 6.3, max: 103.5 } },
  "GreedyPM */per/opt=min/minvt=600": { hpc2n: { avg: 6.9, std: 14.4, max: 149.6 }, unscaled: { avg: 4.8, std: 2.4, max: 13.6 }, scaled: { avg: 6.1, std: 5.4, max: 90.2 } },
  "MCB8 */opt=min/minvt=600": { hpc2n: { avg: 12, std: 32.8, max: 370 }, unscaled: { avg: 6.9, std: 5.4, max: 44.4 }, scaled: { avg: 13.2, std: 21.6, max: 270.9 } },
  "MCB8/per/opt=min/minvt=600": { hpc2n: { avg: 10.8, std: 25.3, max: 287.6 }, unscaled: { avg: 8.1, std: 6.6, max: 53.3 }, scaled: { avg: 11, std: 12.6, max: 127.5 } },
  "MCB8 */per/opt=min/minvt=600": { hpc2n: { avg: 13.6, std: 30.2, max: 318.9 }, unscaled: { avg: 7.8, std: 3.9, max: 21.9 }, scaled: { avg: 12.2, std: 15.3, max: 195.7 } },
  "/per/opt=min/minvt=600": { hpc2n: { avg: 105, std: 445.6, max: 5011.9 }, unscaled: { avg: 43, std: 19.7, max: 134.7 }, scaled: { avg: 40.4, std: 25, max: 238.3 } },
  "/stretch-per/opt=max/minvt=600": { hpc2n: { avg: 105, std: 445.6, max: 5011.9 }, unscaled: { avg: 43, std: 19.6, max: 134.7 }, scaled: { avg: 40.2, std: 24.8, max: 236.9 } },
};

/** One row of Table 3: averages (and maxima) over scaled synthetic traces with load >= 0.7. */
export interface PublishedCosts {
  pmtnGBps: number;
  migGBps: number;
  pmtnPerHour: number;
  migPerHour: number;
  pmtnPerJob: number;
  migPerJob: number;
  max: { pmtnGBps: number; migGBps: number; pmtnPerHour: number; migPerHour: number; pmtnPerJob: number; migPerJob: number };
}

/** Table 3: preemption and migration costs (scaled synthetic traces, load >= 0.7). */
export const PUBLISHED_TABLE3: Readonly<Record<string, PublishedCosts>> = {
  "EASY": { pmtnGBps: 0, migGBps: 0, pmtnPerHour: 0, migPerHour: 0, pmtnPerJob: 0, migPerJob: 0, max: { pmtnGBps: 0, migGBps: 0, pmtnPerHour: 0, migPerHour: 0, pmtnPerJob: 0, migPerJob: 0 } },
  "FCFS": { pmtnGBps: 0, migGBps: 0, pmtnPerHour: 0, migPerHour: 0, pmtnPerJob: 0, migPerJob: 0, max: { pmtnGBps: 0, migGBps: 0, pmtnPerHour: 0, migPerHour: 0, pmtnPerJob: 0, migPerJob: 0 } },
  "Greedy */opt=min": { pmtnGBps: 0, migGBps: 0, pmtnPerHour: 0, migPerHour: 0, pmtnPerJob: 0, migPerJob: 0, max: { pmtnGBps: 0, migGBps: 0, pmtnPerHour: 0, migPerHour: 0, pmtnPerJob: 0, migPerJob: 0 } },
  "GreedyP */opt=min": { pmtnGBps: 0.06, migGBps: 0, pmtnPerHour: 5.67, migPerHour: 0, pmtnPerJob: 0.57, migPerJob: 0, max: { pmtnGBps: 0.17, migGBps: 0, pmtnPerHour: 18, migPerHour: 0, pmtnPerJob: 2.04, migPerJob: 0 } },
  "GreedyPM */opt=min": { pmtnGBps: 0.03, migGBps: 0.02, pmtnPerHour: 2.25, migPerHour: 3.69, pmtnPerJob: 0.23, migPerJob: 0.36, max: { pmtnGBps: 0.07, migGBps: 0.05, pmtnPerHour: 10.08, migPerHour: 13.32, pmtnPerJob: 1.19, migPerJob: 1.22 } },
  "Greedy/per/opt=min": { pmtnGBps: 0.48, migGBps: 0.21, pmtnPerHour: 32.58, migPerHour: 38.79, pmtnPerJob: 5.41, migPerJob: 4.81, max: { pmtnGBps: 1.08, migGBps: 0.6, pmtnPerHour: 83.52, migPerHour: 110.52, pmtnPerJob: 21.76, migPerJob: 16.17 } },
  "GreedyP/per/opt=min": { pmtnGBps: 0.5, migGBps: 0.2, pmtnPerHour: 33.34, migPerHour: 37.52, pmtnPerJob: 5.54, migPerJob: 4.67, max: { pmtnGBps: 1.11, migGBps: 0.6, pmtnPerHour: 85.32, migPerHour: 107.64, pmtnPerJob: 22.2, migPerJob: 15.76 } },
  "GreedyPM/per/opt=min": { pmtnGBps: 0.49, migGBps: 0.21, pmtnPerHour: 32.93, migPerHour: 39.21, pmtnPerJob: 5.52, migPerJob: 4.85, max: { pmtnGBps: 1.1, migGBps: 0.6, pmtnPerHour: 84.24, migPerHour: 112.32, pmtnPerJob: 21.65, migPerJob: 16.03 } },
  "Greedy */per/opt=min": { pmtnGBps: 0.5, migGBps: 0.27, pmtnPerHour: 29.27, migPerHour: 58.06, pmtnPerJob: 4.49, migPerJob: 6.94, max: { pmtnGBps: 1.29, migGBps: 0.66, pmtnPerHour: 84.96, migPerHour: 124.56, pmtnPerJob: 22.55, migPerJob: 17.65 } },
  "GreedyP */per/opt=min": { pmtnGBps: 0.58, migGBps: 0.28, pmtnPerHour: 39.67, migPerHour: 58.56, pmtnPerJob: 5.87, migPerJob: 7.09, max: { pmtnGBps: 1.37, migGBps: 0.65, pmtnPerHour: 97.92, migPerHour: 127.08, pmtnPerJob: 24.87, migPerJob: 17.91 } },
  "GreedyPM */per/opt=min": { pmtnGBps: 0.56, migGBps: 0.29, pmtnPerHour: 35.78, migPerHour: 62.95, pmtnPerJob: 5.42, migPerJob: 7.59, max: { pmtnGBps: 1.37, migGBps: 0.66, pmtnPerHour: 96.48, migPerHour: 135.72, pmtnPerJob: 24, migPerJob: 18.32 } },
  "Greedy */per/opt=min/minvt=600": { pmtnGBps: 0.49, migGBps: 0.24, pmtnPerHour: 28.08, migPerHour: 51.97, pmtnPerJob: 4.29, migPerJob: 6.25, max: { pmtnGBps: 1.27, migGBps: 0.62, pmtnPerHour: 83.52, migPerHour: 117.36, pmtnPerJob: 21.8, migPerJob: 16.53 } },
  "GreedyP */per/opt=min/minvt=600": { pmtnGBps: 0.56, migGBps: 0.24, pmtnPerHour: 37.7, migPerHour: 52.14, pmtnPerJob: 5.56, migPerJob: 6.34, max: { pmtnGBps: 1.36, migGBps: 0.63, pmtnPerHour: 97.2, migPerHour: 119.16, pmtnPerJob: 23.88, migPerJob: 16.48 } },
  "GreedyPM */per/opt=min/minvt=600": { pmtnGBps: 0.54, migGBps: 0.26, pmtnPerHour: 33.8, migPerHour: 56.45, pmtnPerJob: 5.11, migPerJob: 6.84, max: { pmtnGBps: 1.34, migGBps: 0.62, pmtnPerHour: 94.32, migPerHour: 127.08, pmtnPerJob: 23.23, migPerJob: 16.94 } },
  "MCB8 */opt=min": { pmtnGBps: 0.42, migGBps: 1.17, pmtnPerHour: 61.66, migPerHour: 490.48, pmtnPerJob: 6.67, migPerJob: 57.46, max: { pmtnGBps: 1.26, migGBps: 2.36, pmtnPerHour: 230.4, migPerHour: 1005.48, pmtnPerJob: 18.83, migPerJob: 90.29 } },
  "MCB8 */per/opt=min": { pmtnGBps: 0.72, migGBps: 1.21, pmtnPerHour: 77.04, migPerHour: 479.31, pmtnPerJob: 13.01, migPerJob: 73.61, max: { pmtnGBps: 1.15, migGBps: 2.68, pmtnPerHour: 170.28, migPerHour: 1109.52, pmtnPerJob: 28.93, migPerJob: 117.15 } },
  "MCB8 */per/opt=min/minvt=600": { pmtnGBps: 0.54, migGBps: 0.56, pmtnPerHour: 37.94, migPerHour: 194.57, pmtnPerJob: 6.57, migPerJob: 22.55, max: { pmtnGBps: 1.11, migGBps: 1.53, pmtnPerHour: 85.32, migPerHour: 836.28, pmtnPerJob: 26.52, migPerJob: 50.29 } },
  "/per/opt=min": { pmtnGBps: 0.49, migGBps: 0.21, pmtnPerHour: 33.83, migPerHour: 38.69, pmtnPerJob: 5.65, migPerJob: 4.9, max: { pmtnGBps: 1.07, migGBps: 0.62, pmtnPerHour: 84.24, migPerHour: 111.24, pmtnPerJob: 23.23, migPerJob: 16.58 } },
  "/stretch-per/opt=max": { pmtnGBps: 0.28, migGBps: 0.39, pmtnPerHour: 20.41, migPerHour: 67.26, pmtnPerJob: 3.79, migPerJob: 10.41, max: { pmtnGBps: 0.65, migGBps: 0.81, pmtnPerHour: 45.36, migPerHour: 159.48, pmtnPerJob: 16.71, migPerJob: 26.96 } },
};

/** Table 4: average normalized underutilization. */
export const PUBLISHED_TABLE4: Readonly<Record<string, Record<PublishedTraceSet, number>>> = {
  "EASY": { hpc2n: 0.064, unscaled: 0.349, scaled: 0.384 },
  "GreedyP */per/opt=min/minvt=600": { hpc2n: 0.344, unscaled: 0.497, scaled: 0.607 },
  "GreedyPM */per/opt=min/minvt=600": { hpc2n: 0.344, unscaled: 0.497, scaled: 0.608 },
};

/** Table 5 (appendix A): degradation from bound on the HPC2N weeks for all 116 variants plus FCFS and EASY. */
export const PUBLISHED_TABLE5_HPC2N: Readonly<Record<string, PublishedDegradation>> = {
  "FCFS": { avg: 3578.5, std: 3727.8, max: 21718.4 },
  "EASY": { avg: 3041.9, std: 3438, max: 21317.4 },
  "Greedy */opt=avg": { avg: 1012.2, std: 2229.5, max: 19799.1 },
  "Greedy */opt=min": { avg: 949.8, std: 1828.5, max: 11778.4 },
  "Greedy/per/opt=avg": { avg: 28.9, std: 27, max: 212.9 },
  "Greedy/per/opt=avg/minft=300": { avg: 23.3, std: 26.9, max: 182.3 },
  "Greedy/per/opt=avg/minft=600": { avg: 23.5, std: 27.6, max: 212.2 },
  "Greedy/per/opt=avg/minvt=300": { avg: 23.9, std: 26.9, max: 182.3 },
  "Greedy/per/opt=avg/minvt=600": { avg: 23.8, std: 27.8, max: 182.3 },
  "Greedy/per/opt=min": { avg: 28.3, std: 24.9, max: 163.7 },
  "Greedy/per/opt=min/minft=300": { avg: 23.4, std: 26, max: 152 },
  "Greedy/per/opt=min/minft=600": { avg: 23.1, std: 24.8, max: 152.5 },
  "Greedy/per/opt=min/minvt=300": { avg: 23.5, std: 26.9, max: 182.8 },
  "Greedy/per/opt=min/minvt=600": { avg: 23, std: 25.9, max: 152 },
  "Greedy */per/opt=avg": { avg: 24.5, std: 15.9, max: 81.6 },
  "Greedy */per/opt=avg/minft=300": { avg: 19.8, std: 17.8, max: 85.6 },
  "Greedy */per/opt=avg/minft=600": { avg: 19.3, std: 17.6, max: 85.6 },
  "Greedy */per/opt=avg/minvt=300": { avg: 19.2, std: 17.5, max: 85.6 },
  "Greedy */per/opt=avg/minvt=600": { avg: 18.9, std: 17.3, max: 74.9 },
  "Greedy */per/opt=min": { avg: 24.3, std: 15.9, max: 81.6 },
  "Greedy */per/opt=min/minft=300": { avg: 19.5, std: 17.7, max: 85.6 },
  "Greedy */per/opt=min/minft=600": { avg: 19.1, std: 17.5, max: 85.6 },
  "Greedy */per/opt=min/minvt=300": { avg: 18.9, std: 17.2, max: 85.6 },
  "Greedy */per/opt=min/minvt=600": { avg: 19, std: 17.4, max: 66.1 },
  "GreedyP */opt=avg": { avg: 20.4, std: 116.7, max: 1254.2 },
  "GreedyP */opt=min": { avg: 13.5, std: 68, max: 819.2 },
  "GreedyP/per/opt=avg": { avg: 18.4, std: 18.6, max: 152.4 },
  "GreedyP/per/opt=avg/minft=300": { avg: 9.1, std: 18.8, max: 152.4 },
  "GreedyP/per/opt=avg/minft=600": { avg: 9, std: 18.7, max: 152.4 },
  "GreedyP/per/opt=avg/minvt=300": { avg: 9, std: 18.8, max: 152.4 },
  "GreedyP/per/opt=avg/minvt=600": { avg: 8.9, std: 18.9, max: 152.4 },
  "GreedyP/per/opt=min": { avg: 18.5, std: 18.6, max: 152.4 },
  "GreedyP/per/opt=min/minft=300": { avg: 9.1, std: 18.8, max: 152.4 },
  "GreedyP/per/opt=min/minft=600": { avg: 9, std: 18.9, max: 152.4 },
  "GreedyP/per/opt=min/minvt=300": { avg: 9, std: 18.9, max: 152.4 },
  "GreedyP/per/opt=min/minvt=600": { avg: 8.9, std: 18.9, max: 152.4 },
  "GreedyP */per/opt=avg": { avg: 17.9, std: 19.7, max: 213.5 },
  "GreedyP */per/opt=avg/minft=300": { avg: 8.2, std: 19.4, max: 213.5 },
  "GreedyP */per/opt=avg/minft=600": { avg: 7.7, std: 18.5, max: 198.8 },
  "GreedyP */per/opt=avg/minvt=300": { avg: 7, std: 14, max: 149.3 },
  "GreedyP */per/opt=avg/minvt=600": { avg: 6.9, std: 14, max: 149.3 },
  "GreedyP */per/opt=min": { avg: 17.9, std: 19.6, max: 213.5 },
  "GreedyP */per/opt=min/minft=300": { avg: 7.9, std: 19, max: 213.5 },
  "GreedyP */per/opt=min/minft=600": { avg: 7.5, std: 18, max: 198.8 },
  "GreedyP */per/opt=min/minvt=300": { avg: 6.9, std: 14, max: 149.3 },
  "GreedyP */per/opt=min/minvt=600": { avg: 6.9, std: 14.2, max: 149.3 },
  "GreedyPM */opt=avg": { avg: 14.1, std: 72.7, max: 880.1 },
  "GreedyPM */opt=min": { avg: 13.8, std: 68.2, max: 819.2 },
  "GreedyPM/per/opt=avg": { avg: 18.5, std: 19.2, max: 158.7 },
  "GreedyPM/per/opt=avg/minft=300": { avg: 9.1, std: 19.4, max: 158.7 },
  "GreedyPM/per/opt=avg/minft=600": { avg: 9, std: 19.3, max: 158.7 },
  "GreedyPM/per/opt=avg/minvt=300": { avg: 9.1, std: 19.4, max: 158.7 },
  "GreedyPM/per/opt=avg/minvt=600": { avg: 8.9, std: 19.5, max: 158.7 },
  "GreedyPM/per/opt=min": { avg: 18.4, std: 18.8, max: 158.7 },
  "GreedyPM/per/opt=min/minft=300": { avg: 9.2, std: 19.2, max: 158.7 },
  "GreedyPM/per/opt=min/minft=600": { avg: 9.1, std: 19.3, max: 158.7 },
  "GreedyPM/per/opt=min/minvt=300": { avg: 8.9, std: 18.8, max: 158.7 },
  "GreedyPM/per/opt=min/minvt=600": { avg: 8.8, std: 18.9, max: 158.7 },
  "GreedyPM */per/opt=avg": { avg: 17.8, std: 19.3, max: 198.6 },
  "GreedyPM */per/opt=avg/minft=300": { avg: 8.2, std: 19.1, max: 198.6 },
  "GreedyPM */per/opt=avg/minft=600": { avg: 7.8, std: 19, max: 198.8 },
  "GreedyPM */per/opt=avg/minvt=300": { avg: 7, std: 14.1, max: 149.6 },
  "GreedyPM */per/opt=avg/minvt=600": { avg: 6.9, std: 14.2, max: 149.6 },
  "GreedyPM */per/opt=min": { avg: 17.9, std: 19.3, max: 198.6 },
  "GreedyPM */per/opt=min/minft=300": { avg: 8.1, std: 19.2, max: 198.6 },
  "GreedyPM */per/opt=min/minft=600": { avg: 7.9, std: 19.1, max: 198.8 },
  "GreedyPM */per/opt=min/minvt=300": { avg: 6.9, std: 14.3, max: 149.6 },
  "GreedyPM */per/opt=min/minvt=600": { avg: 6.9, std: 14.4, max: 149.6 },
  "MCB8 */opt=avg": { avg: 346.3, std: 1223.1, max: 13399.7 },
  "MCB8 */opt=avg/minft=300": { avg: 44.7, std: 144.2, max: 1082.8 },
  "MCB8 */opt=avg/minft=600": { avg: 20.6, std: 63.9, max: 672 },
  "MCB8 */opt=avg/minvt=300": { avg: 14.1, std: 33.2, max: 370 },
  "MCB8 */opt=avg/minvt=600": { avg: 12.1, std: 32.8, max: 370 },
  "MCB8 */opt=min": { avg: 345.6, std: 1241.5, max: 13668.8 },
  "MCB8 */opt=min/minft=300": { avg: 44.7, std: 138.4, max: 1126.3 },
  "MCB8 */opt=min/minft=600": { avg: 19.1, std: 59.2, max: 672 },
  "MCB8 */opt=min/minvt=300": { avg: 14, std: 33.2, max: 370 },
  "MCB8 */opt=min/minvt=600": { avg: 12, std: 32.8, max: 370 },
  "MCB8/per/opt=avg": { avg: 171.4, std: 702.4, max: 8383 },
  "MCB8/per/opt=avg/minft=300": { avg: 15, std: 33.5, max: 279.3 },
  "MCB8/per/opt=avg/minft=600": { avg: 12.1, std: 26.9, max: 292.4 },
  "MCB8/per/opt=avg/minvt=300": { avg: 11.5, std: 25.3, max: 287.6 },
  "MCB8/per/opt=avg/minvt=600": { avg: 10.7, std: 25.2, max: 287.6 },
  "MCB8/per/opt=min": { avg: 169.1, std: 691.4, max: 8362.3 },
  "MCB8/per/opt=min/minft=300": { avg: 15.1, std: 34.5, max: 309.3 },
  "MCB8/per/opt=min/minft=600": { avg: 12.1, std: 26.9, max: 292.4 },
  "MCB8/per/opt=min/minvt=300": { avg: 11.5, std: 25.3, max: 287.6 },
  "MCB8/per/opt=min/minvt=600": { avg: 10.8, std: 25.3, max: 287.6 },
  "MCB8 */per/opt=avg": { avg: 394.5, std: 1562.9, max: 17862 },
  "MCB8 */per/opt=avg/minft=300": { avg: 56.1, std: 197.4, max: 1849.6 },
  "MCB8 */per/opt=avg/minft=600": { avg: 23.6, std: 71.3, max: 799.3 },
  "MCB8 */per/opt=avg/minvt=300": { avg: 15.5, std: 30.6, max: 318.9 },
  "MCB8 */per/opt=avg/minvt=600": { avg: 13.7, std: 30.3, max: 318.9 },
  "MCB8 */per/opt=min": { avg: 389.1, std: 1522.1, max: 17313.6 },
  "MCB8 */per/opt=min/minft=300": { avg: 56.8, std: 198.7, max: 1738.4 },
  "MCB8 */per/opt=min/minft=600": { avg: 25.1, std: 81.4, max: 799.3 },
  "MCB8 */per/opt=min/minvt=300": { avg: 15.4, std: 30.6, max: 318.9 },
  "MCB8 */per/opt=min/minvt=600": { avg: 13.6, std: 30.2, max: 318.9 },
  "/per/opt=avg": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=avg/minft=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=avg/minft=600": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=avg/minvt=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=avg/minvt=600": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=min": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=min/minft=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=min/minft=600": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=min/minvt=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/per/opt=min/minvt=600": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=avg": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=avg/minft=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=avg/minft=600": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=avg/minvt=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=avg/minvt=600": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=max": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=max/minft=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=max/minft=600": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=max/minvt=300": { avg: 105, std: 445.6, max: 5011.9 },
  "/stretch-per/opt=max/minvt=600": { avg: 105, std: 445.6, max: 5011.9 },
};

/** Section 6.2: MCB8 run time under "MCB8 *" on the 100 unscaled traces (3.2 GHz Xeon). */
export const PUBLISHED_MCB8_TIMES = { calls: 197808, meanSeconds: 0.25, maxSecondsBelow: 4.5, shareWithAtMost10Jobs: 0.6725 } as const;

/**
 * Section 6.1 / Figure 1 text: the best algorithm's degradation at low and high loads (scaled set), and the load
 * above which GreedyPM * with opt=min "quickly leads to poorer performance than most other algorithms" (0.3).
 */
export const PUBLISHED_FIGURE1_NOTES = { bestAlgorithm: 'GreedyPM */per/opt=min/minvt=600', lowLoad: 3, highLoad: 7.5, greedyPmStarBreakdownLoad: 0.3 } as const;

/** Section 6.4.2 text: EASY's normalized underutilization on HPC2N weeks (~6.4%) and our algorithm's plateau (~11.8%). */
export const PUBLISHED_FIGURE3_NOTES = { hpc2nEasy: 0.064, hpc2nPlateau: 0.118, periodWhereDfrsBeatsEasySynthetic: 900 } as const;

/**
 * Numbers the paper states only in its text (section 6.4.2, Figure 3), shown
 * ONLY as labelled "published" values beside ours: EASY's normalized
 * underutilization on HPC2N, the plateau of the best periodic GreedyPM variant
 * (minvt=600) over periods on HPC2N, and the period above which it beats EASY on the
 * synthetic sets.
 */
export const PUBLISHED_FIGURE3_TEXT = { easyHpc2n: 0.064, plateauHpc2n: 0.118, crossoverPeriodSynthetic: 900 } as const;
