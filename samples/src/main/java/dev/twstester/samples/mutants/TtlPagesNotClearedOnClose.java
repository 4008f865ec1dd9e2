package dev.twstester.samples.mutants;

import dev.twstester.samples.ttl.TtlSessions;

/** Bug: the close timer clears the click count but not the page list. */
class TtlPagesNotClearedOnClose extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the close timer clears the click count but not the page list";

    @Override
    protected void clearSession() {
        clicks.clear();
    }
}
