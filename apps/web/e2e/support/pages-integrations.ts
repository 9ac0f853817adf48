import { en } from './app';
import { type AppPage, h1 } from './app-page';
import { TOKEN_STORY, WEBHOOK_STORY } from './integrations';
import { jobTitleOf } from './jobs';

/** Your tokens and sessions, the webhooks and their deliveries, and the background jobs. */
export const INTEGRATION_PAGES: AppPage[] = [
  {
    name: 'account-tokens',
    title: 'your API tokens',
    who: 'admin',
    path: () => '/account/tokens',
    ready: async (p) => {
      await h1(p, en.tokens.title);
      await p.getByRole('heading', { name: TOKEN_STORY.used, exact: true }).waitFor();
    },
  },
  {
    name: 'account-sessions',
    title: 'your sessions',
    who: 'admin',
    path: () => '/account/sessions',
    ready: async (p) => {
      await h1(p, en.sessions.title);
      await p.getByText(en.sessions.list.thisDevice, { exact: true }).waitFor();
    },
  },
  {
    name: 'webhooks-list',
    title: 'the webhooks',
    who: 'admin',
    path: () => '/webhooks',
    ready: async (p) => {
      await h1(p, en.webhooks.title);
      await p.getByText(WEBHOOK_STORY.description, { exact: true }).first().waitFor();
    },
  },
  {
    name: 'webhook-new',
    title: 'the new-webhook form',
    who: 'admin',
    path: () => '/webhooks/new',
    ready: (p) => h1(p, en.webhooks.form.newTitle),
  },
  {
    name: 'webhook-show',
    title: 'a webhook endpoint and its delivery log',
    who: 'admin',
    // Filtered to failed deliveries: other browser tests' user events (SCIM provisioning creates
    // users too) must not push the story's failed delivery off the log's first page.
    path: ({ webhook }) => `/webhooks/${webhook.id}?${encodeURI('filters[status][]')}=failed`,
    ready: async (p, { webhook }) => {
      await p.getByRole('heading', { level: 1 }).waitFor();
      await p.locator(`a[href="/webhooks/${webhook.id}/deliveries/${webhook.deliveryId}"]`).waitFor();
    },
  },
  {
    name: 'webhook-delivery',
    title: 'a failed webhook delivery',
    who: 'admin',
    path: ({ webhook }) => `/webhooks/${webhook.id}/deliveries/${webhook.deliveryId}`,
    ready: async (p) => {
      await h1(p, en.webhooks.events['user.deactivated'].label);
      await p.getByText(en.webhooks.delivery.attempt(2), { exact: true }).waitFor();
    },
  },
  {
    name: 'jobs-list',
    title: 'the jobs list',
    who: 'admin',
    // The story's job is a dry run: listed when dry runs are asked for.
    path: () => '/jobs?filters[dry_run]=true',
    ready: async (p, { job }) => {
      await h1(p, en.jobs.title);
      await p.locator(`a[href="/jobs/${job.id}"]`).first().waitFor();
    },
  },
  {
    name: 'job',
    title: 'a background job',
    who: 'admin',
    path: ({ job }) => `/jobs/${job.id}`,
    ready: async (p, { job }) => {
      await h1(p, en.jobs.jobName(job.id, await jobTitleOf(p, job.id)));
      await p.getByText(en.jobs.skipCode('SELF_DEACTIVATION'), { exact: true }).waitFor();
    },
  },
];
