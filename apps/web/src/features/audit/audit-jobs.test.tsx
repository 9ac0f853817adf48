import type { AuditItem, AuditJob, AuditListResult, AuditRow } from '@app/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { signInRow } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

// A job's events in the audit trail name the job by its title and link to it; their context
// reads in words, never as JSON.
const t = en.audit;
const j = en.jobs;

const deactivation: AuditJob = {
  kind: 'bulk',
  operation: 'setActive',
  active: false,
  role: null,
  attribute: null,
  dryRun: false,
  progress: { total: 1500, processed: 1500, changed: 1497, skipped: 3, failed: 0 },
  target: {
    kind: 'selection',
    query: { q: null, filters: { is_active: true } },
    except: 0,
    withheld: 0,
    roles: [],
    attributes: [],
  },
  open: true,
};
const TITLE = 'Job #11 · Deactivate 1,500 users matching Status: Active';

const jobEvent = (overrides: Partial<AuditRow> = {}): AuditRow =>
  signInRow({
    id: 70,
    action: 'job.finish',
    actor_id: 1,
    actor_name: 'Ada Admin',
    target_type: 'job',
    target_ids: [11],
    target_count: 1,
    target_names: {},
    target_jobs: { '11': deactivation },
    user_agent: null,
    ...overrides,
  });

const page = (rows: AuditRow[]): AuditListResult => ({
  rows,
  meta: { page: 1, perPage: 25, total: rows.length, totalExact: true, pageCount: 1 },
  filters: {},
});

const item = (context: Record<string, unknown>, overrides: Partial<AuditRow> = {}): { item: AuditItem } => ({
  item: { ...jobEvent(overrides), context },
});

describe('a job in the audit log', () => {
  it('is named by its title in the list, linked to its page; a pruned one by its id', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'audit.list': ok(
        page([jobEvent(), jobEvent({ id: 69, action: 'job.submit', target_ids: [4], target_jobs: {} })]),
      ),
    });
    renderApp('/audit');

    const link = await screen.findByRole('link', { name: TITLE });
    expect(link.getAttribute('href')).toBe('/jobs/11');
    // Pruned since: its id, and nothing to link to.
    expect(screen.getByText(j.reference(4, null))).toBeTruthy();
    expect(screen.queryByRole('link', { name: j.reference(4, null) })).toBeNull();
    expect(document.body.textContent).not.toMatch(/\d+ users?…|by id/);
  });

  it('names a job the reader may not open without linking to a page they would not find', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'audit.list': ok(page([jobEvent({ target_jobs: { '11': { ...deactivation, open: false } } })])),
    });
    renderApp('/audit');

    expect(await screen.findByText(TITLE)).toBeTruthy();
    expect(screen.queryByRole('link', { name: TITLE })).toBeNull();
  });

  it('shows a finished job’s event: the job linked, how it ended and its counts in words', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'audit.show': ok(
        item({
          status: 'cancelled',
          kind: 'bulk',
          operation: 'setActive',
          dryRun: false,
          progress: { total: 1500, processed: 1500, changed: 1497, skipped: 3, failed: 0 },
          counts: { LAST_ADMIN: 1, OUTRANKED: 2 },
          target: deactivation.target,
        }),
      ),
    });
    renderApp('/audit/70');

    const targets = await screen.findByRole('region', { name: t.event.targetsTitle });
    expect(within(targets).getByText(t.targetsCount(1, 'job'))).toBeTruthy();
    expect(within(targets).getByRole('link', { name: TITLE }).getAttribute('href')).toBe('/jobs/11');
    expect(targets.textContent).not.toContain(t.event.moreTargetIds(1));
    // A job's event changes no field of its own: no empty "Changes" card.
    expect(screen.queryByRole('heading', { name: t.event.changesTitle })).toBeNull();
    expect(document.body.textContent).not.toContain(t.noChanges);

    const details = screen.getByRole('region', { name: t.event.contextTitle });
    const text = details.textContent ?? '';
    expect(text).toContain(t.job.ended);
    expect(text).toContain(j.statuses.cancelled);
    expect(text).toContain(t.job.realRun);
    expect(text).toContain(t.job.processedOf(1500, 1500));
    expect(text).toContain('Changed 1,497 · skipped 3 · failed 0');
    expect(text).toContain(`${j.skipCode('LAST_ADMIN')}: 1 · ${j.skipCode('OUTRANKED')}: 2`);
    expect(text).not.toMatch(/[{}[\]"]/);
    expect(text).not.toContain('setActive');
  });

  it('says a dry run would change, and names what a submission recorded', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'audit.show': ok(
        item(
          {
            kind: 'bulk',
            operation: 'setActive',
            dryRun: true,
            total: 1500,
            resource: 'users',
            query: { q: null, filters: { is_active: { kind: 'exact', value: true } } },
            except: [5, 6],
            idBound: 2000,
            scopes: null,
            tokenId: null,
            active: false,
            roleId: null,
            roleName: null,
          },
          { action: 'job.submit', target_jobs: { '11': { ...deactivation, dryRun: true } } },
        ),
      ),
    });
    renderApp('/audit/70');

    const details = await screen.findByRole('region', { name: t.event.contextTitle });
    const text = details.textContent ?? '';
    expect(text).toContain(t.job.dryRun);
    expect(text).toContain(`${t.job.matched}1,500`);
    expect(text).toContain(t.job.leftOutIds([5, 6]));
    expect(text).not.toMatch(/[{}[\]"]|idBound|resource|query/);
    const targets = screen.getByRole('region', { name: t.event.targetsTitle });
    expect(within(targets).getByText(j.dryRunTag)).toBeTruthy();
  });

  it('shows an undo’s submission with the job it reverses', async () => {
    const undo: AuditJob = { ...deactivation, kind: 'undo', operation: 'setActive', target: { kind: 'job', id: 9 } };
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'audit.show': ok(
        item(
          { kind: 'undo', of: 9, operation: 'setActive', dryRun: false },
          { action: 'job.submit', target_jobs: { '11': undo } },
        ),
      ),
    });
    renderApp('/audit/70');

    const targets = await screen.findByRole('region', { name: t.event.targetsTitle });
    expect(within(targets).getByRole('link', { name: j.reference(11, j.titles.undo(9)) })).toBeTruthy();
    const details = screen.getByRole('region', { name: t.event.contextTitle });
    expect(
      within(details)
        .getByRole('link', { name: j.reference(9, null) })
        .getAttribute('href'),
    ).toBe('/jobs/9');
  });
});
