/**
 * A Slack member id, defined once for every layer that checks one: the access lists read from
 * the environment, the payloads the Slack layer reads, and the views that write `<@id>`, which
 * must never turn anything but an id into markup. A member id is `U`, or `W` on Enterprise
 * Grid, then upper-case letters and digits: Slack's are 8 to 11 of them today, and the bound
 * is lenient upward so a longer id Slack may issue later still passes, while `<!channel>`, a
 * lower-case or empty value, or a runaway string never does.
 */

/** The id alone, unanchored: for patterns that find one inside markup (`<@U…|name>`). */
export const MEMBER_ID_SOURCE = '[UW][A-Z0-9]{2,20}';

/** A whole value that is a Slack member id and nothing else. */
export const MEMBER_ID = new RegExp(`^${MEMBER_ID_SOURCE}$`);
