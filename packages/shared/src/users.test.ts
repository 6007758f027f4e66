import { describe, expect, it } from 'vitest';
import { usernameSchema } from './users.js';

describe('usernameSchema', () => {
  it.each(['ab', 'admin', 'learner1', 'Ann.b-c_20', 'a'.repeat(20), ' padded '])('takes %j', (name) => {
    expect(usernameSchema.safeParse(name).success).toBe(true);
  });

  it.each(['', 'a', 'a'.repeat(21), 'a b!', 'a b', 'li/ming', 'x@y', '李明', 'émile'])('refuses %j', (name) => {
    const result = usernameSchema.safeParse(name);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('please use 2 to 20 letters, digits, _, - or .');
  });
});
