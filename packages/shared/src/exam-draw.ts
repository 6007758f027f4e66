// Drawing an exam paper's random questions (DESIGN §6): each draw rule asks for `count` questions
// out of those matching it, no question twice in one paper (nor one the paper already has as a
// fixed question). Rules may overlap (a "fire safety" rule and a "difficulty 3" rule can match the
// same question), so the draw is a matching of questions to rule slots, not rule by rule: a
// greedy draw could starve a later rule the bank could have satisfied. Pure and zod-free: the
// server validates an exam with it at save and draws each paper with it; the tests table it.

export type DrawDemand = {
  /** How many questions the rule draws. */
  count: number;
  /** The ids of the questions it may draw (those matching its tags, type and difficulty). */
  candidates: readonly number[];
};

export type DrawOutcome =
  | { ok: true; /** Per rule, the ids drawn for it, `count` of them. */ drawn: number[][] }
  | {
      ok: false;
      /** The first rule left short. */
      rule: number;
      /** How many questions match that rule, and how many of those are free of fixed questions. */
      matching: number;
      available: number;
      /** Whether the rule could be met alone, so it is short only because other rules take its questions. */
      sharedShortfall: boolean;
    };

/**
 * Questions for every rule at once, or the first rule the bank cannot satisfy. `random` (values
 * in [0, 1)) decides which of the possible papers is drawn; the same sequence draws the same paper.
 */
export function drawQuestions(demands: readonly DrawDemand[], fixed: readonly number[], random: () => number = Math.random): DrawOutcome {
  const taken = new Set(fixed);
  const pools = demands.map((demand) => shuffled(unique(demand.candidates).filter((id) => !taken.has(id)), random));
  // Slots: one per question a rule must draw. A slot holds a question; a question fills one slot.
  const slotRule: number[] = [];
  demands.forEach((demand, rule) => {
    for (let index = 0; index < demand.count; index += 1) slotRule.push(rule);
  });
  const slotOfQuestion = new Map<number, number>();
  const questionOfSlot = new Array<number | undefined>(slotRule.length).fill(undefined);

  const place = (slot: number, seen: Set<number>): boolean => {
    for (const question of pools[slotRule[slot] as number] as number[]) {
      if (seen.has(question)) continue;
      seen.add(question);
      const holder = slotOfQuestion.get(question);
      if (holder === undefined || place(holder, seen)) {
        slotOfQuestion.set(question, slot);
        questionOfSlot[slot] = question;
        return true;
      }
    }
    return false;
  };

  for (let slot = 0; slot < slotRule.length; slot += 1) {
    if (place(slot, new Set())) continue;
    const rule = slotRule[slot] as number;
    const demand = demands[rule] as DrawDemand;
    const available = (pools[rule] as number[]).length;
    return { ok: false, rule, matching: unique(demand.candidates).length, available, sharedShortfall: available >= demand.count };
  }
  const drawn = demands.map(() => [] as number[]);
  questionOfSlot.forEach((question, slot) => (drawn[slotRule[slot] as number] as number[]).push(question as number));
  return { ok: true, drawn };
}

/** A copy in random order (Fisher–Yates), by `random`. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}
