import { describe, expect, it } from 'vitest';
import { keepSections } from '../../bench/report-sections.js';

/** docs/PERFORMANCE.md after a full `npm run bench`: the sections other runs wrote are kept, once. */
describe("the benchmark report's kept sections", () => {
  const webhooks = '<!-- webhooks:start -->\n## Webhooks\n\n2 926/s\n<!-- webhooks:end -->';
  const jobs = '<!-- jobs:start -->\n## Background jobs\n\n10 407 users/s\n<!-- jobs:end -->';

  it('carries a section the new report lacks, before the notes', () => {
    const old = `# Performance\n\n${webhooks}\n\n## Notes\n\nold notes\n`;
    const fresh = '# Performance\n\n## Results\n\n## Notes\n\nnew notes\n';
    const out = keepSections(old, fresh);
    expect(out.split('<!-- webhooks:start -->')).toHaveLength(2);
    expect(out.indexOf(webhooks)).toBeLessThan(out.indexOf('## Notes'));
  });

  it('does not add again a section the kept notes already hold', () => {
    const notes = `<!-- bench:notes:start -->\n${webhooks}\n\n${jobs}\n\n## Notes\n\nanalysis\n<!-- bench:notes:end -->`;
    const old = `# Performance\n\n## Results\n\nold\n\n${notes}\n`;
    const fresh = `# Performance\n\n## Results\n\nnew\n\n${notes}\n`;
    const out = keepSections(old, fresh);
    expect(out.split('<!-- webhooks:start -->')).toHaveLength(2);
    expect(out.split('<!-- jobs:start -->')).toHaveLength(2);
    expect(out).toBe(fresh);
  });
});
