// max-depth: deeper than structure.maxDepth (5 in .filid/config.json)
export const ticks = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
