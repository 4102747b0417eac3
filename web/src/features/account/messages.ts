/**
 * Messages of the account settings (/account) and the dashboard's link to them. Spread into
 * `i18n/messages/et.ts` and `en.ts`; `en` must carry exactly the keys of `et`.
 */
const et = {
  'dashboard.userInfo.accountSettings': 'Konto seaded',

  'account.title': 'Konto seaded',
  'account.subtitle': '{name} · {email}',

  'account.email.title': 'E-post',
  'account.email.field': 'E-posti aadress',
  'account.email.currentPassword': 'Praegune parool',
  'account.email.howItWorks':
    'Uuele aadressile saadetakse kinnituslink. Aadress muutub alles siis, kui avad selle lingi; seni logid sisse praeguse aadressiga.',
  'account.email.save': 'Muuda e-posti aadressi',
  'account.email.pendingTitle': 'Kinnita uus aadress',
  'account.email.pending':
    'Saatsime kinnituslingi aadressile {email}. Ava see link uue aadressi postkastist (link kehtib 24 tundi). Kuni kinnitamiseni logid sisse aadressiga {current}.',
  'account.email.needsPassword': 'E-posti aadressi muutmiseks on vaja parooli. Määra endale esmalt parool.',

  'confirmEmail.title': 'Uue e-posti aadressi kinnitamine',
  'confirmEmail.description': 'Kinnitame sinu konto uut e-posti aadressi.',
  'confirmEmail.pending': 'Kinnitan…',
  'confirmEmail.success': 'E-posti aadress on muudetud. Logi edaspidi sisse aadressiga {email}.',

  'account.password.title': 'Parool',
  'account.password.set': 'Määratud',
  'account.password.notSet': 'Määramata',
  'account.password.current': 'Praegune parool',
  'account.password.new': 'Uus parool',
  'account.password.repeat': 'Korda uut parooli',
  'account.password.save': 'Muuda parooli',
  'account.password.saved': 'Parool on muudetud.',
  'account.password.none': 'Sinu kontol ei ole parooli. Parooli saad määrata e-postiga saadetava lingi kaudu.',
  'account.password.setByLink': 'Saada parooli määramise link',

  'account.language.title': 'Keel',
  'account.language.description': 'Kasutajaliidese keel. Valik salvestatakse sinu kontole ja sellesse seadmesse.',

  'account.mfa.title': 'Mitmikautentimine',
  'account.mfa.description': 'Sisselogimisel küsitakse parooli kõrval autentimisrakenduse koodi.',
  'account.mfa.on': 'Sisse lülitatud',
  'account.mfa.off': 'Välja lülitatud',
  'account.mfa.add': 'Lülita sisse',
  'account.mfa.edit': 'Seadista uuesti',
  'account.mfa.disable': 'Lülita välja',
  'account.mfa.disableTitle': 'Mitmikautentimise väljalülitamine',
  'account.mfa.disableQuestion':
    'Kas soovid mitmikautentimise välja lülitada? Organisatsioonidesse, mis seda nõuavad, saad siis siseneda alles pärast uut seadistamist.',
  'account.mfa.stepUpTitle': 'Kinnita koodiga',
  'account.mfa.stepUpText': 'Mitmikautentimise muutmiseks sisesta oma autentimisrakenduse praegune kuuekohaline kood.',
  'account.mfa.added': 'Mitmikautentimine on seadistatud.',
  'account.mfa.disabled': 'Mitmikautentimine on välja lülitatud.',

  'account.electronicId.title': 'ID-kaart',
  'account.electronicId.description': 'Seo oma ID-kaart kontoga, et saaksid sellega sisse logida.',
  'account.electronicId.descriptionBound': 'Sinu ID-kaart on kontoga seotud: saad sellega sisse logida.',
  'account.electronicId.isBound': 'Seotud',
  'account.electronicId.isNotBound': 'Sidumata',
  'account.electronicId.bind': 'Seo ID-kaart',
  'account.electronicId.unbind': 'Eemalda ID-kaart',
  'account.electronicId.unbindTitle': 'ID-kaardi eemaldamine',
  'account.electronicId.unbindQuestion': 'Kas soovid ID-kaardi kontolt eemaldada? Pärast seda ei saa sa ID-kaardiga sisse logida.',
  'account.electronicId.bound': 'ID-kaart on kontoga seotud.',
  'account.electronicId.bindFailed': 'ID-kaardi sidumine ebaõnnestus.',
  'account.electronicId.unbound': 'ID-kaart on kontolt eemaldatud.',
} as const;

const en: { [Key in keyof typeof et]: string } = {
  'dashboard.userInfo.accountSettings': 'Account settings',

  'account.title': 'Account settings',
  'account.subtitle': '{name} · {email}',

  'account.email.title': 'E-mail',
  'account.email.field': 'E-mail address',
  'account.email.currentPassword': 'Current password',
  'account.email.howItWorks':
    'A confirmation link is sent to the new address. The address changes only once you open that link; until then you sign in with your current address.',
  'account.email.save': 'Change e-mail address',
  'account.email.pendingTitle': 'Confirm your new address',
  'account.email.pending':
    "We sent a confirmation link to {email}. Open it from the new address's mailbox (the link is valid for 24 hours). Until then you sign in with {current}.",
  'account.email.needsPassword': 'Changing your e-mail address needs a password. Set a password first.',

  'confirmEmail.title': 'Confirm your new e-mail address',
  'confirmEmail.description': 'We are confirming the new e-mail address of your account.',
  'confirmEmail.pending': 'Confirming…',
  'confirmEmail.success': 'Your e-mail address has been changed. From now on, sign in with {email}.',

  'account.password.title': 'Password',
  'account.password.set': 'Set',
  'account.password.notSet': 'Not set',
  'account.password.current': 'Current password',
  'account.password.new': 'New password',
  'account.password.repeat': 'Repeat new password',
  'account.password.save': 'Change password',
  'account.password.saved': 'Your password has been changed.',
  'account.password.none': 'Your account has no password. You can set one through a link sent by e-mail.',
  'account.password.setByLink': 'Send a link to set a password',

  'account.language.title': 'Language',
  'account.language.description': 'The language of the interface. It is saved to your account and on this device.',

  'account.mfa.title': 'Multi-factor authentication',
  'account.mfa.description': 'When you log in, a code from your authenticator app is asked for in addition to the password.',
  'account.mfa.on': 'On',
  'account.mfa.off': 'Off',
  'account.mfa.add': 'Turn on',
  'account.mfa.edit': 'Set up again',
  'account.mfa.disable': 'Turn off',
  'account.mfa.disableTitle': 'Turn off multi-factor authentication',
  'account.mfa.disableQuestion':
    'Do you want to turn off multi-factor authentication? Organisations that require it can then only be entered after setting it up again.',
  'account.mfa.stepUpTitle': 'Confirm with a code',
  'account.mfa.stepUpText': 'To change multi-factor authentication, enter the current six-digit code from your authenticator app.',
  'account.mfa.added': 'Multi-factor authentication has been set up.',
  'account.mfa.disabled': 'Multi-factor authentication has been turned off.',

  'account.electronicId.title': 'ID card',
  'account.electronicId.description': 'Link your ID card to your account to log in with it.',
  'account.electronicId.descriptionBound': 'Your ID card is linked to your account: you can log in with it.',
  'account.electronicId.isBound': 'Linked',
  'account.electronicId.isNotBound': 'Not linked',
  'account.electronicId.bind': 'Link ID card',
  'account.electronicId.unbind': 'Remove ID card',
  'account.electronicId.unbindTitle': 'Remove ID card',
  'account.electronicId.unbindQuestion': 'Do you want to remove the ID card from your account? You will no longer be able to log in with it.',
  'account.electronicId.bound': 'Your ID card has been linked to your account.',
  'account.electronicId.bindFailed': 'Linking the ID card failed.',
  'account.electronicId.unbound': 'The ID card has been removed from your account.',
};

export const accountMessages = { et, en };
