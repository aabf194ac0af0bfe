/**
 * Signs out of a session opened through the OpenID provider: a POST of a form to the server's logout route (a
 * same-site POST carries the SameSite=Lax cookie; another site's cannot), which ends the session, clears the cookie
 * and sends the browser on to the provider's sign-out (RP-initiated logout) and back to the UI.
 */
export function signOutAtProvider(logoutPath = '/auth/oidc/logout'): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = logoutPath;
  form.style.display = 'none';
  document.body.append(form);
  form.submit();
}
