import type { DemoPerson } from './personal-code';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f3f5f8; color: #1d2733; margin: 0; }
  main { max-width: 440px; margin: 48px auto; background: #fff; border-radius: 8px; padding: 24px 28px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  h1 { font-size: 20px; margin: 0 0 4px; } p.lead { color: #5a6573; margin: 0 0 16px; font-size: 14px; }
  fieldset { border: 1px solid #d5dbe3; border-radius: 6px; padding: 8px 12px; margin: 0 0 16px; }
  label { display: block; padding: 6px 0; cursor: pointer; } code { color: #5a6573; }
  input[type=text] { font: inherit; padding: 4px 6px; width: 12ch; }
  .error { background: #fdecea; color: #8a1c1c; border-radius: 4px; padding: 8px 10px; margin: 0 0 12px; }
  button { font: inherit; padding: 8px 16px; border-radius: 4px; border: 1px solid #0b5cad; cursor: pointer; }
  button.primary { background: #0b5cad; color: #fff; } button.secondary { background: #fff; color: #0b5cad; margin-left: 8px; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="et"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The approval page: the person picks a preset or types a personal code and approves or cancels. */
export function approvalPage(input: { transaction: string; clientId: string; people: readonly DemoPerson[]; error?: string; enteredCode?: string }): string {
  const presets = input.people
    .map(
      (person, index) =>
        `<label><input type="radio" name="personal_code" value="${escapeHtml(person.personalCode)}"${index === 0 && !input.enteredCode ? ' checked' : ''}> ${escapeHtml(
          `${person.givenName} ${person.familyName}`,
        )} <code>${escapeHtml(person.personalCode)}</code></label>`,
    )
    .join('\n');
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return page(
    'Elektrooniline ID',
    `<h1>Elektrooniline isikutuvastus</h1>
<p class="lead">Local electronic-ID stand-in. <strong>${escapeHtml(input.clientId)}</strong> asks who you are.</p>
${error}
<form method="post" action="/authorize/decision">
<input type="hidden" name="transaction" value="${escapeHtml(input.transaction)}">
<fieldset><legend>Isik / Person</legend>
${presets}
<label><input type="radio" name="personal_code" value="other"${input.enteredCode ? ' checked' : ''}> Muu isikukood / Other personal code:
<input type="text" name="other_code" inputmode="numeric" maxlength="11" autocomplete="off" aria-label="Isikukood" value="${escapeHtml(input.enteredCode ?? '')}"></label>
</fieldset>
<button class="primary" type="submit" name="action" value="approve">Kinnita / Approve</button>
<button class="secondary" type="submit" name="action" value="cancel">Katkesta / Cancel</button>
</form>`,
  );
}

export function errorPage(message: string): string {
  return page('Viga / Error', `<h1>Viga / Error</h1><p class="error" role="alert">${escapeHtml(message)}</p>`);
}

export function indexPage(issuer: string): string {
  return page(
    'Electronic-ID provider',
    `<h1>Local electronic-ID provider</h1><p class="lead">An OpenID Connect provider standing in for the national electronic-ID service.</p>
<p>Discovery: <code>${escapeHtml(issuer)}/.well-known/openid-configuration</code></p>`,
  );
}
