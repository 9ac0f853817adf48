import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './support/app';
import { browserMissing, launch } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  if (!browserMissing()) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.skipIf(browserMissing())('the typeface', () => {
  it('is Inter, served with the app (not whatever the system has)', async () => {
    const { context, page } = await signedInPage(browser);
    const fontFiles: string[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('.woff2')) fontFiles.push(`${new URL(res.url()).pathname} ${res.status()}`);
    });
    await page.goto('/status');
    const heading = page.getByRole('heading', { level: 1 }).first();
    await heading.waitFor();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));

    // The stylesheet asks for it first, and the face it declared has loaded from this origin.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Inter Variable"/);
    expect(await page.evaluate(() => document.fonts.check('600 16px "Inter Variable"'))).toBe(true);
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family.replace(/"/g, '')),
    );
    expect(loaded).toContain('Inter Variable');
    expect(fontFiles.some((line) => /^\/assets\/inter-latin-wght-normal-[\w-]+\.woff2 200$/.test(line))).toBe(true);

    // And the glyphs on screen come from it: Chromium says which font rendered a node's text.
    const cdp = await context.newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'h1' });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    expect(fonts.map((font) => ({ family: font.familyName, custom: font.isCustomFont }))).toEqual([
      { family: expect.stringMatching(/^Inter/), custom: true },
    ]);
    await context.close();
  });
});
