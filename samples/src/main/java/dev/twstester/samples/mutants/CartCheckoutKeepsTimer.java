package dev.twstester.samples.mutants;

import dev.twstester.samples.cart.CartWatch;

/** Bug: a checkout clears the cart but leaves its idle timer registered. */
class CartCheckoutKeepsTimer extends CartWatch {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a checkout clears the cart but leaves its idle timer registered";

    @Override
    protected void checkout() {
        items.clear();
        lastSeen.clear();
    }
}
