import { seededRandom } from '../../server/src/stats/random.js';

// The closed form against a seeded simulation of the design it describes: n questions, k
// independent trajectories per question and arm, base rate p₀ and treatment p₀ − δ, the
// per-question paired differences tested with a two-sided 5% z-test on their mean.
export function simulatedPower(questions: number, perQuestion: number, base: number, treatment: number, trials: number, seed: number): number {
  const random = seededRandom(seed);
  const share = (p: number): number => {
    let e = 0;
    for (let s = 0; s < perQuestion; s++) if (random() < p) e++;
    return e / perQuestion;
  };
  let rejected = 0;
  for (let t = 0; t < trials; t++) {
    let sum = 0;
    let squares = 0;
    for (let q = 0; q < questions; q++) {
      const d = share(treatment) - share(base);
      sum += d;
      squares += d * d;
    }
    const mean = sum / questions;
    const variance = (squares - questions * mean * mean) / (questions - 1);
    if (variance > 0 && Math.abs(mean) / Math.sqrt(variance / questions) > 1.959963984540054) rejected++;
  }
  return rejected / trials;
}

