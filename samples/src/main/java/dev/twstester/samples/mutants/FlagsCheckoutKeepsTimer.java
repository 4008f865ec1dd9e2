package dev.twstester.samples.mutants;

import dev.twstester.samples.chain.CartFlags;

/** Bug: a checkout clears the cart's counts but leaves its idle timer registered. */
class FlagsCheckoutKeepsTimer extends CartFlags {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a checkout clears the cart's counts but leaves its idle timer registered";

    @Override
    protected void clear() {
        items.clear();
        lastAdd.clear();
    }
}
