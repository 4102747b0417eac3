/**
 * Messages of the auth feature (login, password pages, MFA, electronic ID). Spread into
 * `i18n/messages/et.ts` and `en.ts`; `en` must carry exactly the keys of `et`.
 */
const et = {
  'auth.backToLogin': 'Tagasi sisselogimise juurde',
  'auth.sending': 'Saatmine…',
  'auth.or': 'või',

  'login.electronicId': 'Logi sisse ID-kaardiga',
  'login.registeredSuccess': 'Registreerimine on lõpetatud. Logi nüüd sisse.',
  'login.resetSuccess': 'Parool on muudetud. Logi uue parooliga sisse.',
  'login.electronicIdError': 'Kasutajat ei leitud või autentimine ebaõnnestus.',
  'login.requiredType.LOGIN': 'Valitud organisatsioon nõuab sisselogimist e-posti ja parooliga.',
  'login.requiredType.LOGIN_WITH_MFA':
    'Valitud organisatsioon nõuab mitmikautentimist: logi sisse e-posti ja parooliga, seejärel küsitakse autentimisrakenduse koodi.',
  'login.requiredType.PASS': 'Valitud organisatsioon nõuab sisselogimist ID-kaardiga.',

  'electronicId.reason.CANCELLED': 'ID-kaardiga autentimine katkestati.',
  'electronicId.reason.NOT_CONFIGURED': 'ID-kaardiga sisselogimine ei ole selles keskkonnas kasutusel.',
  'electronicId.reason.PERSONAL_CODE_IN_USE': 'See ID-kaart on juba seotud teise kasutajaga.',
  'electronicId.reason.EMAIL_NOT_CONFIRMED': 'Konto e-posti aadress on kinnitamata. Kasuta registreerimiskirja linki.',
  'electronicId.reason.INVALID_TOKEN': 'Link on vigane või aegunud.',
  'electronicId.reason.SESSION_CHANGED': 'Seanss muutus autentimise ajal. Proovi uuesti.',
  'setPassword.electronicIdError': 'ID-kaardiga kinnitamine ebaõnnestus.',

  'selectOccupation.needsMfa': 'Nõuab autentimisrakenduse koodi',
  'selectOccupation.needsRelogin': 'Nõuab teistsugust sisselogimist',

  'resetRequest.title': 'Unustasid parooli?',
  'resetRequest.description': 'Sisesta oma e-posti aadress. Saadame sulle lingi, millega saad määrata uue parooli.',
  'resetRequest.submit': 'Saada link',
  'resetRequest.success': 'Kui see aadress on kasutusel, saadeti sinna link uue parooli määramiseks. Kontrolli oma postkasti.',

  'resendConfirmation.title': 'Saada kinnituskiri uuesti',
  'resendConfirmation.description': 'Sisesta e-posti aadress, millega sind registreeriti. Saadame registreerimise kinnituskirja uuesti.',
  'resendConfirmation.submit': 'Saada kinnituskiri',
  'resendConfirmation.success': 'Kui see aadress ootab kinnitamist, saadeti sinna uus kinnituskiri. Kontrolli oma postkasti.',

  'setPassword.registration.title': 'Lõpeta registreerimine',
  'setPassword.registration.description': 'Vali parool, millega edaspidi sisse logid.',
  'setPassword.reset.title': 'Määra uus parool',
  'setPassword.reset.description': 'Sisesta uus parool ja korda seda.',
  'setPassword.tokenInvalid.title': 'Link on vigane või aegunud',
  'setPassword.tokenInvalid.text': 'Küsi sisselogimise lehelt uus link.',
  'setPassword.password': 'Uus parool',
  'setPassword.passwordRegistration': 'Parool',
  'setPassword.repeat': 'Korda parooli',
  'setPassword.rules': 'Vähemalt 8 märki, sealhulgas väiketäht, suurtäht ja number.',
  'setPassword.submit': 'Salvesta parool',
  'setPassword.submitting': 'Salvestamine…',
  'setPassword.electronicId': 'Kasuta parooli asemel ID-kaarti',

  'mfa.code': 'Kuuekohaline kood',
  'mfa.checking': 'Kontrollimine…',
  'mfa.enter.title': 'Mitmikautentimine',
  'mfa.enter.description': 'Ava oma autentimisrakendus ja sisesta Eelarve kuuekohaline kood.',
  'mfa.enter.submit': 'Kinnita',
  'mfa.setup.title': 'Mitmikautentimise seadistamine',
  'mfa.setup.description': 'Seo oma konto autentimisrakendusega (nt Google Authenticator, Microsoft Authenticator).',
  'mfa.setup.step1': 'Skaneeri QR-kood autentimisrakendusega või sisesta võti käsitsi.',
  'mfa.setup.step2': 'Sisesta rakenduse näidatud kuuekohaline kood.',
  'mfa.setup.qrAlt': 'QR-kood autentimisrakendusele',
  'mfa.setup.manual': 'Võti käsitsi sisestamiseks',
  'mfa.setup.submit': 'Kinnita ja lülita sisse',

  'validation.passwordMinLength': 'Parool peab olema vähemalt 8 märki pikk',
  'validation.passwordStrength': 'Parool peab sisaldama väiketähte, suurtähte ja numbrit',
  'validation.passwordMismatch': 'Paroolid ei kattu',
  'validation.mfaCode': 'Kood koosneb kuuest numbrist',
} as const;

const en: { [Key in keyof typeof et]: string } = {
  'auth.backToLogin': 'Back to login',
  'auth.sending': 'Sending…',
  'auth.or': 'or',

  'login.electronicId': 'Log in with ID card',
  'login.registeredSuccess': 'Your registration is complete. You can now log in.',
  'login.resetSuccess': 'Your password has been changed. Log in with the new password.',
  'login.electronicIdError': 'User not found or authentication failed.',
  'login.requiredType.LOGIN': 'The organisation you chose requires logging in with e-mail and password.',
  'login.requiredType.LOGIN_WITH_MFA':
    'The organisation you chose requires multi-factor authentication: log in with e-mail and password, then enter the code from your authenticator app.',
  'login.requiredType.PASS': 'The organisation you chose requires logging in with an ID card.',

  'electronicId.reason.CANCELLED': 'The ID-card authentication was cancelled.',
  'electronicId.reason.NOT_CONFIGURED': 'Logging in with an ID card is not available in this environment.',
  'electronicId.reason.PERSONAL_CODE_IN_USE': 'This ID card is already linked to another user.',
  'electronicId.reason.EMAIL_NOT_CONFIRMED': 'The e-mail address of the account is not confirmed. Use the link in the registration e-mail.',
  'electronicId.reason.INVALID_TOKEN': 'The link is invalid or has expired.',
  'electronicId.reason.SESSION_CHANGED': 'The session changed during the authentication. Please try again.',
  'setPassword.electronicIdError': 'Confirming with the ID card failed.',

  'selectOccupation.needsMfa': 'Requires a code from your authenticator app',
  'selectOccupation.needsRelogin': 'Requires a different login method',

  'resetRequest.title': 'Forgot your password?',
  'resetRequest.description': 'Enter your e-mail address and we will send you a link to set a new password.',
  'resetRequest.submit': 'Send link',
  'resetRequest.success': 'If this address is in use, a link to set a new password has been sent to it. Please check your inbox.',

  'resendConfirmation.title': 'Resend confirmation',
  'resendConfirmation.description': 'Enter the e-mail address you were registered with and we will send the confirmation e-mail again.',
  'resendConfirmation.submit': 'Send confirmation',
  'resendConfirmation.success': 'If this address is awaiting confirmation, a new confirmation e-mail has been sent. Please check your inbox.',

  'setPassword.registration.title': 'Complete your registration',
  'setPassword.registration.description': 'Choose the password you will log in with.',
  'setPassword.reset.title': 'Set a new password',
  'setPassword.reset.description': 'Enter your new password and repeat it.',
  'setPassword.tokenInvalid.title': 'The link is invalid or has expired',
  'setPassword.tokenInvalid.text': 'Request a new link from the login page.',
  'setPassword.password': 'New password',
  'setPassword.passwordRegistration': 'Password',
  'setPassword.repeat': 'Repeat password',
  'setPassword.rules': 'At least 8 characters, including a lower-case letter, an upper-case letter and a digit.',
  'setPassword.submit': 'Save password',
  'setPassword.submitting': 'Saving…',
  'setPassword.electronicId': 'Use an ID card instead of a password',

  'mfa.code': 'Six-digit code',
  'mfa.checking': 'Checking…',
  'mfa.enter.title': 'Multi-factor authentication',
  'mfa.enter.description': 'Open your authenticator app and enter the six-digit code for Eelarve.',
  'mfa.enter.submit': 'Verify',
  'mfa.setup.title': 'Set up multi-factor authentication',
  'mfa.setup.description': 'Link your account to an authenticator app (e.g. Google Authenticator, Microsoft Authenticator).',
  'mfa.setup.step1': 'Scan the QR code with your authenticator app or enter the key by hand.',
  'mfa.setup.step2': 'Enter the six-digit code the app shows.',
  'mfa.setup.qrAlt': 'QR code for the authenticator app',
  'mfa.setup.manual': 'Key for entering by hand',
  'mfa.setup.submit': 'Verify and turn on',

  'validation.passwordMinLength': 'The password must be at least 8 characters long',
  'validation.passwordStrength': 'The password must contain a lower-case letter, an upper-case letter and a digit',
  'validation.passwordMismatch': 'The passwords do not match',
  'validation.mfaCode': 'The code consists of six digits',
};

export const authMessages = { et, en };
