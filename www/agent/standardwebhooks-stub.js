// A stand-in for the `standardwebhooks` package, which the Anthropic SDK imports for verifying
// webhooks (CommonJS only, so it cannot load in a page without a bundler). Nothing in the demo
// verifies webhooks; a file, not a data: URL, so the page's Content-Security-Policy stays 'self'.

export class Webhook {
  constructor() {
    throw new Error("webhooks are not verified in this page");
  }
}
