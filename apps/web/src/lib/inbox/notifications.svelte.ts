const KEY = 'thinkingmap.notifications';

/** What the browser allows: a Notification permission, or no notifications at all. */
export type NotificationState = NotificationPermission | 'unsupported';

/**
 * Browser notifications for questions that arrive while the person looks elsewhere: off until the person
 * turns them on (which asks the browser's permission); the choice is remembered.
 */
export class BrowserNotifications {
  permission = $state<NotificationState>('unsupported');
  #wanted = $state(false);

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null) {
    this.permission = typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
    this.#wanted = storage?.getItem(KEY) === 'on';
  }

  /** Whether notifications are on: wanted by the person and allowed by the browser. */
  get enabled(): boolean {
    return this.#wanted && this.permission === 'granted';
  }

  /** Turns notifications on, asking the browser's permission if it has not been given. */
  async enable(): Promise<void> {
    if (this.permission === 'unsupported') return;
    if (this.permission !== 'granted') this.permission = await Notification.requestPermission();
    this.#wanted = this.permission === 'granted';
    this.storage?.setItem(KEY, this.#wanted ? 'on' : 'off');
  }

  /** Turns notifications off. */
  disable(): void {
    this.#wanted = false;
    this.storage?.setItem(KEY, 'off');
  }

  /** Shows a notification (when on); clicking it brings the page back and runs `onClick`. */
  notify(title: string, body: string, tag: string, onClick: () => void): void {
    if (!this.enabled) return;
    const notification = new Notification(title, { body, tag, lang: document.documentElement.lang });
    notification.onclick = () => {
      window.focus();
      onClick();
      notification.close();
    };
  }
}
