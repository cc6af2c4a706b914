/** How many frames to look for what changed after a gate went (the change arrives as events). */
const AFTER_FRAMES = 120;

const focusIsNowhere = () => !document.activeElement || document.activeElement === document.body;

/**
 * A gate (a restatement to confirm, a proposal to approve, a draft to accept, a question) as an attachment that
 * keeps a keyboard user in place. When the gate appears while the focus is nowhere (on the page's body, as after
 * the control that started the run went away), the focus moves to the gate. When the gate goes after the person
 * acted in it and the focus fell to the body with it, the focus moves to what changed: `after()` (tried for a
 * couple of seconds, until it exists), else the node panel the gate was in.
 */
export function gateFocus(after?: () => HTMLElement | null | undefined) {
  return (element: HTMLElement) => {
    if (!element.hasAttribute('tabindex')) element.tabIndex = -1;
    const panel = element.parentElement?.closest<HTMLElement>('[data-testid="node-panel"]') ?? null;
    const shown = requestAnimationFrame(() => {
      if (focusIsNowhere()) element.focus({ preventScroll: false });
    });
    // Whether the person was last in the gate: focus inside it, or gone from it to nowhere (a pressed button
    // that got disabled while its action ran).
    let inside = false;
    const onFocusIn = () => {
      inside = true;
    };
    const onFocusOut = (event: FocusEvent) => {
      inside =
        event.relatedTarget === null || (event.relatedTarget instanceof Node && element.contains(event.relatedTarget));
    };
    element.addEventListener('focusin', onFocusIn);
    element.addEventListener('focusout', onFocusOut);
    return () => {
      cancelAnimationFrame(shown);
      element.removeEventListener('focusin', onFocusIn);
      element.removeEventListener('focusout', onFocusOut);
      if (!inside) return;
      let frames = 0;
      const land = () => {
        if (!focusIsNowhere()) return;
        const target = after?.() ?? (frames >= AFTER_FRAMES || !after ? panel : null);
        if (target?.isConnected) target.focus();
        else if (frames++ < AFTER_FRAMES) requestAnimationFrame(land);
      };
      requestAnimationFrame(land);
    };
  };
}
