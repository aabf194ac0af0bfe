const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The page a refused sign-in answers with: what happened and what to do, in words, with a link back to the sign-in
 * screen. It holds the error's fixed message and hint only — never a token, a claim or a provider's text.
 */
export function signInErrorPage(message: string, hint: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign-in failed · Evident</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}h1{font-size:1.4rem}</style></head>
<body><main role="main"><h1>Sign-in failed</h1>
<p role="alert" data-testid="sign-in-error">${escapeHtml(message)}</p>
${hint ? `<p>${escapeHtml(hint)}</p>` : ''}
<p><a href="/">Back to the sign-in page</a></p></main></body>
</html>`;
}
