/* global document, window */
// Runs in the sign-in popup: hands the result to the page that opened it, and only if that page
// is on this same origin (the target origin of postMessage), then closes the popup.
const result = JSON.parse(document.body.dataset.signInResult);
if (window.opener) {
  window.opener.postMessage(result, window.location.origin);
  window.close();
}
