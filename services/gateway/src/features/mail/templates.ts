import { findUserById } from '@eelarve/projections/accounts/queries';
import { findOrganization } from '@eelarve/projections/organizations/queries';
import { DEFAULT_LOCALE, type LocaleCode, PRODUCT_NAME } from '@eelarve/shared';
import { type AppDatabase, readModels } from '../../infrastructure/database';
import type { MailMessage } from './outbox';

export type MailLanguage = LocaleCode;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

/** An absolute link to a page of the web client. */
export function publicLink(publicUrl: string, page: string, query: Record<string, string> = {}): string {
  const url = new URL(page, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}

interface Content {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer: string;
}

function render(to: string, content: Content): MailMessage {
  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.action ? [content.action.url, ''] : []),
    content.footer,
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: Arial, sans-serif; color: #1f2933; line-height: 1.5">',
    `<p>${escapeHtml(content.greeting)}</p>`,
    ...content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    content.action
      ? `<p><a href="${escapeHtml(content.action.url)}" style="display: inline-block; padding: 8px 16px; background: #0b5cad; color: #ffffff; text-decoration: none; border-radius: 4px">${escapeHtml(content.action.label)}</a></p><p style="font-size: 12px">${escapeHtml(content.action.url)}</p>`
      : '',
    `<p style="font-size: 12px; color: #52606d">${escapeHtml(content.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: content.subject, text, html };
}

const footer: Record<MailLanguage, string> = {
  et: `See kiri on saadetud automaatselt rakendusest ${PRODUCT_NAME}. Palun ära vasta sellele.`,
  en: `This message was sent automatically by ${PRODUCT_NAME}. Please do not reply.`,
};

export function registrationMail(language: MailLanguage, input: { to: string; name: string; url: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: kinnita oma konto`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        `Sulle on loodud konto rakenduses ${PRODUCT_NAME}.`,
        'Konto kinnitamiseks ja parooli määramiseks ava allolev link. Link kehtib 7 päeva ja seda saab kasutada ühe korra.',
      ],
      action: { label: 'Kinnita konto', url: input.url },
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: confirm your account`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `An account has been created for you in ${PRODUCT_NAME}.`,
        'Open the link below to confirm your account and set your password. The link is valid for 7 days and can be used once.',
      ],
      action: { label: 'Confirm account', url: input.url },
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

export function passwordResetMail(language: MailLanguage, input: { to: string; name: string; url: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: parooli lähtestamine`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        'Keegi (loodetavasti sina) palus sinu konto parooli lähtestada.',
        'Uue parooli määramiseks ava allolev link. Link kehtib 24 tundi ja seda saab kasutada ühe korra. Kui sa seda ei palunud, võid kirja eirata.',
      ],
      action: { label: 'Määra uus parool', url: input.url },
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: password reset`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        'Someone (hopefully you) asked to reset the password of your account.',
        'Open the link below to set a new password. The link is valid for 24 hours and can be used once. If you did not ask for this, you can ignore this message.',
      ],
      action: { label: 'Set a new password', url: input.url },
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

export function emailChangedMail(language: MailLanguage, input: { to: string; name: string; newEmail: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: e-posti aadress muudetud`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        `Sinu konto e-posti aadress muudeti aadressiks ${input.newEmail}.`,
        'Kui sina seda ei teinud, võta kohe ühendust oma organisatsiooni administraatoriga.',
      ],
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: e-mail address changed`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `The e-mail address of your account was changed to ${input.newEmail}.`,
        'If you did not do this, contact the administrator of your organisation at once.',
      ],
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

/** To the new address: the change takes effect only through this link. */
export function emailChangeConfirmMail(language: MailLanguage, input: { to: string; name: string; url: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: kinnita uus e-posti aadress`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        `Sinu konto e-posti aadressiks soovitakse muuta ${input.to}.`,
        'Muudatuse kinnitamiseks ava allolev link. Kuni kinnitamiseni logid sisse vana aadressiga. Link kehtib 24 tundi ja seda saab kasutada ühe korra. Kui sa seda ei palunud, võid kirja eirata.',
      ],
      action: { label: 'Kinnita e-posti aadress', url: input.url },
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: confirm your new e-mail address`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `A change of your account's e-mail address to ${input.to} was requested.`,
        'Open the link below to confirm it. Until then you sign in with the old address. The link is valid for 24 hours and can be used once. If you did not ask for this, you can ignore this message.',
      ],
      action: { label: 'Confirm e-mail address', url: input.url },
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

/** To the old address when a change is requested: nothing has changed yet, but the owner should know. */
export function emailChangeRequestedMail(language: MailLanguage, input: { to: string; name: string; newEmail: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: e-posti aadressi muutmise taotlus`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        `Sinu konto e-posti aadressi soovitakse muuta aadressiks ${input.newEmail}. Muudatus jõustub alles siis, kui see on uuelt aadressilt kinnitatud.`,
        'Kui sina seda ei teinud, muuda kohe oma parooli ja võta ühendust oma organisatsiooni administraatoriga.',
      ],
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: e-mail address change requested`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        `A change of your account's e-mail address to ${input.newEmail} was requested. It takes effect only once it is confirmed from the new address.`,
        'If you did not do this, change your password at once and contact the administrator of your organisation.',
      ],
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

/** After a password change: the owner learns of it even if someone else made it. */
export function passwordChangedMail(language: MailLanguage, input: { to: string; name: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: parool muudetud`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        'Sinu konto parool muudeti. Kõik teised seansid lõpetati.',
        'Kui sina seda ei teinud, lähtesta parool kohe sisselogimislehel ja võta ühendust oma organisatsiooni administraatoriga.',
      ],
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: password changed`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        'The password of your account was changed. All other sessions were ended.',
        'If you did not do this, reset your password on the sign-in page at once and contact the administrator of your organisation.',
      ],
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

/** After MFA was removed from the account. */
export function mfaRemovedMail(language: MailLanguage, input: { to: string; name: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: mitmeastmeline autentimine eemaldatud`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        'Sinu kontolt eemaldati mitmeastmeline autentimine (autentimisrakenduse kood). Sisselogimiseks piisab nüüd paroolist.',
        'Kui sina seda ei teinud, muuda kohe oma parooli ja võta ühendust oma organisatsiooni administraatoriga.',
      ],
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: multi-factor authentication removed`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        'Multi-factor authentication (the authenticator app code) was removed from your account. A password alone now signs you in.',
        'If you did not do this, change your password at once and contact the administrator of your organisation.',
      ],
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

/** After an administrator removed every way the account signs in (password, MFA, electronic ID). */
export function authMethodsRemovedMail(language: MailLanguage, input: { to: string; name: string }): MailMessage {
  const content: Record<MailLanguage, Content> = {
    et: {
      subject: `${PRODUCT_NAME}: sisselogimise viisid eemaldatud`,
      greeting: `Tere, ${input.name}!`,
      paragraphs: [
        'Platvormi administraator eemaldas sinu kontolt kõik sisselogimise viisid (parooli, mitmeastmelise autentimise ja ID-kaardi sidumise) ning lõpetas kõik seansid.',
        'Uue parooli saad määrata sisselogimislehe kaudu „Unustasid parooli?“. Kui see tuli sulle ootamatult, võta ühendust oma organisatsiooni administraatoriga.',
      ],
      footer: footer.et,
    },
    en: {
      subject: `${PRODUCT_NAME}: sign-in methods removed`,
      greeting: `Hello ${input.name},`,
      paragraphs: [
        'A platform administrator removed every way of signing in from your account (password, multi-factor authentication and the electronic-ID binding) and ended all its sessions.',
        'You can set a new password through "Forgot password?" on the sign-in page. If you did not expect this, contact the administrator of your organisation.',
      ],
      footer: footer.en,
    },
  };
  return render(input.to, content[language]);
}

function asLanguage(value: unknown): MailLanguage | null {
  return value === 'et' || value === 'en' ? value : null;
}

/** The user's own language, else their organisation's locale language, else Estonian. */
export async function mailLanguage(db: AppDatabase, user: { userId: string; organizationId?: string | null }): Promise<MailLanguage> {
  const row = await findUserById(readModels(db), user.userId);
  const own = asLanguage(row?.language);
  if (own) return own;
  const organizationId = user.organizationId ?? row?.organization_id ?? null;
  if (organizationId) {
    const organization = await findOrganization(readModels(db), organizationId);
    const language = asLanguage(organization?.locale_settings?.language);
    if (language) return language;
  }
  return DEFAULT_LOCALE;
}
