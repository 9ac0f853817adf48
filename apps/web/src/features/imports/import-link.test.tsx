import { importsMessages } from '../../i18n/imports-messages';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { ok } from '../../test/trpc-mock';
import { mockUsersApi } from '../users/list/users-list.test-support';
import { CREATE_ONLY_CHOICES } from './import-test-support';

const t = importsMessages;

describe('the way to the Import page', { timeout: 20_000 }, () => {
  it('is a link beside "New user" on the users list for those who may create users', async () => {
    mockUsersApi(['users.view', 'users.create'], 3, { 'imports.new': ok(CREATE_ONLY_CHOICES) });
    renderApp('/users');

    const link = await screen.findByRole('link', { name: en.usersList.importUsers });
    expect(link.getAttribute('href')).toBe('/users/import');
    expect(screen.getByRole('link', { name: en.usersList.newUser })).toBeTruthy();
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: t.title })).toBeTruthy();
    expect(screen.getByRole('button', { name: (name) => name.startsWith(t.file.dropZone) })).toBeTruthy();
    expect(await screen.findByRole('checkbox', { name: 'manager' })).toBeTruthy();
  });

  it('is not offered without users.create', async () => {
    mockUsersApi(['users.view']);
    renderApp('/users');
    await screen.findByRole('heading', { level: 1, name: en.usersList.title });
    expect(screen.queryByRole('link', { name: en.usersList.importUsers })).toBeNull();
  });
});
