import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { attributesMessages } from '../../i18n/attributes-messages';
import { en } from '../../i18n/en';
import { ATTRIBUTE_FIELDS } from '../../test/attribute-fixtures';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { userEdit, userShow } from '../../test/user-fixtures';

const f = en.userForm;
const t = attributesMessages.attributeFields;
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const NEW_FORM = { options: { roles: [], permissions: [], attributes: ATTRIBUTE_FIELDS }, can: { setActive: false } };
const GRANTED = ['users.view', 'users.create', 'users.update'] as const;
const grace = { id: 7, name: 'Grace Hopper', email: 'grace@example.com' };

function fillPerson() {
  type(f.name, 'Ben Ng');
  type(f.email, 'ben@example.com');
  type(f.password, 'correct-horse');
  type(f.passwordConfirmation, 'correct-horse');
}

describe('attribute fields on the user form', { timeout: 20_000 }, () => {
  it('renders a control per type', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf([...GRANTED])), 'users.new': ok(NEW_FORM) });
    renderApp('/users/new');

    expect((await screen.findByLabelText('Employee number')).getAttribute('type')).toBe('text');
    expect(field('Level').getAttribute('type')).toBe('number');
    expect(field('Start date').getAttribute('type')).toBe('date');
    expect(field('Backup e-mail').getAttribute('type')).toBe('email');
    expect(field('Homepage').getAttribute('type')).toBe('url');
    const remote = screen.getByRole('combobox', { name: 'Works remotely' });
    expect(
      within(remote)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([t.notSet, t.yes, t.no]);
    const department = screen.getByRole('combobox', { name: 'Department' });
    expect(
      within(department)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([t.choose, 'Sales', 'Support']);
    expect(screen.getByText('Where the person works.')).toBeTruthy();
    expect(field('Manager').getAttribute('type')).toBe('search');
  });

  it('judges the values with the server’s own rules before sending', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf([...GRANTED])), 'users.new': ok(NEW_FORM) });
    renderApp('/users/new');

    await screen.findByLabelText('Employee number');
    fillPerson();
    type('Employee number', '12-34');
    type('Level', '12');
    type('Backup e-mail', 'ben.example.com');
    type('Homepage', 'example.com');
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    expect(await screen.findByText('Employee number does not have the expected form.')).toBeTruthy();
    expect(screen.getByText('Level must be 9 or less.')).toBeTruthy();
    expect(screen.getByText('Backup e-mail must be an e-mail address, such as ada@example.com.')).toBeTruthy();
    expect(screen.getByText('Homepage must be a web address starting with https:// or http://.')).toBeTruthy();
    expect(screen.getByText('Department is required.')).toBeTruthy();
    expect(field('Level').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('users.create')).toEqual([]);
  });

  it('sends each value in its type, a manager picked by name', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf([...GRANTED])),
      'users.new': ok(NEW_FORM),
      'users.list': ok({ rows: [grace], meta: { page: 1, perPage: 10, total: 1, totalExact: true, pageCount: 1 } }),
      'users.show': (input) => ((input as { id: number }).id === grace.id ? ok(userShow(grace)) : 'pending'),
      'users.create': ok({ item: userShow({ id: 77, name: 'Ben Ng' }).item }),
    });
    const { router } = renderApp('/users/new');

    await screen.findByLabelText('Employee number');
    fillPerson();
    type('Employee number', ' 004217 ');
    type('Level', '3');
    type('Works remotely', 'false');
    type('Start date', '2026-03-14');
    type('Department', 'Sales');
    type('Manager', 'grace');
    fireEvent.click(await screen.findByRole('button', { name: /Grace Hopper/ }));
    expect(await screen.findByText('grace@example.com')).toBeTruthy();
    expect(api.callsTo('users.list')).toContainEqual({ q: 'grace', perPage: 10 });
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/77'));
    expect(api.callsTo('users.create')[0]).toMatchObject({
      attributes: {
        employee_number: '004217',
        level: 3,
        remote: false,
        start_date: '2026-03-14',
        department: 'Sales',
        manager: 7,
      },
    });
  });

  it('on an edit, sends only the changed values, null for a cleared one, and shows the server’s refusal on its field', async () => {
    const refusal = 'Employee number 004217 is already held by another user.';
    const api = mockTrpc({
      'auth.me': ok(sessionOf([...GRANTED])),
      'users.edit': ok(
        userEdit(
          { attributes: { employee_number: '004217', level: 3, remote: true, department: 'Sales' } },
          { attributes: ATTRIBUTE_FIELDS },
        ),
      ),
      'users.update': fail({
        message: 'The input is not valid.',
        code: 'VALIDATION_FAILED',
        httpStatus: 422,
        errors: { 'attributes.employee_number': [refusal] },
      }),
    });
    renderApp('/users/42/edit');

    await waitFor(() => expect(field('Employee number').value).toBe('004217'));
    expect((screen.getByRole('combobox', { name: 'Works remotely' }) as HTMLSelectElement).value).toBe('true');
    type('Level', '');
    type('Employee number', '004218');
    type('Employee number', '004217 ');
    type('Department', 'Support');
    fireEvent.click(screen.getByRole('button', { name: f.save }));

    await waitFor(() => expect(api.callsTo('users.update')).toHaveLength(1));
    expect((api.callsTo('users.update')[0] as { attributes: unknown }).attributes).toEqual({
      level: null,
      department: 'Support',
    });
    // The server refuses what the client cannot know (a unique value taken): shown on its field.
    const number = field('Employee number');
    await waitFor(() => expect(number.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(refusal)).toBeTruthy();
  });
});

describe('attributes on the user page', { timeout: 20_000 }, () => {
  it('lists the values by their labels, a user reference as a link to that user', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.create'])),
      'users.show': (input) =>
        ok(
          (input as { id: number }).id === 7
            ? userShow(grace)
            : userShow({ attributes: { department: 'Sales', manager: 7, remote: false } }, ['users.view']),
        ),
      'users.new': ok(NEW_FORM),
    });
    renderApp('/users/42');

    const card = await screen.findByRole('region', { name: t.cardTitle });
    expect(await within(card).findByText('Department')).toBeTruthy();
    expect(within(card).getByText('Sales')).toBeTruthy();
    expect(within(card).getByText('Works remotely')).toBeTruthy();
    expect(within(card).getByText(t.no)).toBeTruthy();
    const manager = await within(card).findByRole('link', { name: 'Grace Hopper' });
    expect(manager.getAttribute('href')).toBe('/users/7');
  });

  it('takes the labels from the users list’s answer for a viewer', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view'])),
      'users.show': ok(userShow({ attributes: { department: 'Sales' } }, ['users.view'])),
      'users.list': ok({ rows: [], attributes: ATTRIBUTE_FIELDS }),
    });
    renderApp('/users/42');

    const card = await screen.findByRole('region', { name: t.cardTitle });
    expect(await within(card).findByText('Department')).toBeTruthy();
    expect(within(card).queryByText(t.cardKeysOnly)).toBeNull();
  });

  it('names the values by key when no label can be read, and says so', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view'])),
      'users.show': ok(userShow({ attributes: { department: 'Sales' } }, ['users.view'])),
      'users.list': fail({ message: 'Unavailable.', code: 'UNAVAILABLE', httpStatus: 503 }),
    });
    renderApp('/users/42');

    const card = await screen.findByRole('region', { name: t.cardTitle });
    expect(within(card).getByText('department')).toBeTruthy();
    expect(within(card).getByText(t.cardKeysOnly)).toBeTruthy();
  });
});
