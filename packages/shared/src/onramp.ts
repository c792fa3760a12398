import { CARD_WIDGET_DEFAULTS, CARD_WIDGET_HOME } from './constants';

// The card on-ramp widget (spec 000 §3, §4, §5): its configuration, validation messages, the
// provider's page per environment and the events it posts to its parent window. The widget is the
// provider's page in an iframe; the modal around it lives in the web app.

export type OnrampEnvironment = 'DEVELOPMENT' | 'STAGING' | 'PRODUCTION';

/** The provider's widget page per environment. */
const ONRAMP_WIDGET_URLS: Record<OnrampEnvironment, string> = {
  DEVELOPMENT: 'https://localhost:5005/',
  STAGING: 'https://global-stg.transak.com/',
  PRODUCTION: 'https://global.transak.com/',
};

export const ONRAMP_MESSAGES = {
  apiKey: 'Please enter your API Key',
  containerId: 'Please enter a valid containerId',
  notConfigured: 'Card purchases are not configured on this server',
} as const;

/** Events the widget posts (`event_id`), in the spec's order; the close request is ours to send. */
export const ONRAMP_EVENTS = {
  initialised: 'TRANSAK_WIDGET_INITIALISED',
  orderCreated: 'TRANSAK_ORDER_CREATED',
  orderSuccessful: 'TRANSAK_ORDER_SUCCESSFUL',
  orderCancelled: 'TRANSAK_ORDER_CANCELLED',
  orderFailed: 'TRANSAK_ORDER_FAILED',
  walletRedirection: 'TRANSAK_WALLET_REDIRECTION',
  widgetClose: 'TRANSAK_WIDGET_CLOSE',
  userInfoReceived: 'TRANSAK_USER_INFO_RECEIVED',
} as const;
export type OnrampEventName = keyof typeof ONRAMP_EVENTS;
export const ONRAMP_CLOSE_REQUEST = 'TRANSAK_WIDGET_CLOSE_REQUEST';

/** The public (publishable) widget settings the server hands out; null when not configured. */
export interface OnrampPublicConfig {
  apiKey: string;
  environment: OnrampEnvironment;
}

export interface OnrampWidgetConfig {
  apiKey: string | null | undefined;
  environment?: OnrampEnvironment;
  /** Render into this element instead of the modal. */
  containerId?: string;
  /** Hex without '#'. */
  themeColor?: string;
  widgetWidth?: string;
  widgetHeight?: string;
  cryptoCurrencyCode?: string;
  network?: string;
  email?: string;
  userData?: Record<string, unknown>;
  walletAddressesData?: Record<string, unknown>;
}

/**
 * Checks a widget configuration as the widget does: the API key first, then the container (when one
 * is named, `containerExists` must find it). Returns the spec's message, or null when usable.
 */
export function onrampConfigError(
  config: OnrampWidgetConfig,
  containerExists: (id: string) => boolean = () => true,
): string | null {
  if (!config.apiKey?.trim()) return ONRAMP_MESSAGES.apiKey;
  if (config.containerId !== undefined && !containerExists(config.containerId))
    return ONRAMP_MESSAGES.containerId;
  return null;
}

/** Size and color with the spec's defaults (1461db, 480px × 650px). */
export function onrampLayout(
  config: Pick<OnrampWidgetConfig, 'themeColor' | 'widgetWidth' | 'widgetHeight'>,
) {
  return {
    themeColor: config.themeColor ?? CARD_WIDGET_DEFAULTS.themeColor,
    width: config.widgetWidth ?? CARD_WIDGET_DEFAULTS.width,
    height: config.widgetHeight ?? CARD_WIDGET_DEFAULTS.height,
  };
}

/** The home page's instance: XRP on the xrpl network, prefilled with the user's email, 450 × 600. */
export function homeOnrampConfig(
  server: OnrampPublicConfig,
  email: string | null | undefined,
): OnrampWidgetConfig {
  return {
    apiKey: server.apiKey,
    environment: server.environment,
    cryptoCurrencyCode: CARD_WIDGET_HOME.currency,
    network: CARD_WIDGET_HOME.network,
    widgetWidth: CARD_WIDGET_HOME.width,
    widgetHeight: CARD_WIDGET_HOME.height,
    ...(email ? { email, userData: { email } } : {}),
  };
}

/** The iframe's address: the environment's page with the settings as query parameters. */
export function onrampWidgetUrl(config: OnrampWidgetConfig): string {
  const env = config.environment ?? 'STAGING';
  const url = new URL(ONRAMP_WIDGET_URLS[env]);
  const { themeColor } = onrampLayout(config);
  const params: Record<string, string | undefined> = {
    apiKey: config.apiKey?.trim(),
    themeColor,
    cryptoCurrencyCode: config.cryptoCurrencyCode,
    network: config.network,
    email: config.email,
    userData: config.userData ? JSON.stringify(config.userData) : undefined,
    walletAddressesData: config.walletAddressesData ? JSON.stringify(config.walletAddressesData) : undefined,
  };
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  return url.toString();
}

/** The origin whose messages the modal accepts (the iframe's). */
export const onrampOrigin = (environment: OnrampEnvironment) =>
  new URL(ONRAMP_WIDGET_URLS[environment]).origin;

/** Maps a posted message to the event it reports, or null for anything else. */
export function onrampEvent(data: unknown): { name: OnrampEventName; data: unknown } | null {
  const id = (data as { event_id?: unknown } | null)?.event_id;
  if (typeof id !== 'string') return null;
  const entry = (Object.entries(ONRAMP_EVENTS) as [OnrampEventName, string][]).find(([, v]) => v === id);
  return entry ? { name: entry[0], data: (data as { data?: unknown }).data } : null;
}
