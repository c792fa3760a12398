// Which AMM amendments the math follows. Mainnet runs with fixAMMv1_3 (rounding every deposit,
// withdrawal and LP token amount in the pool's favour); setting it off reproduces rippled before
// that amendment, which is what xrpl.js 5.0.0's integration tests were recorded against.
export const ammRules = { fixAMMv1_3: true };

export function setAmmRules(rules: Partial<typeof ammRules>): void {
  Object.assign(ammRules, rules);
}
