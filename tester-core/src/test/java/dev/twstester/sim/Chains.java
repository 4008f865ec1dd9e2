package dev.twstester.sim;

import dev.twstester.TwsQuery;

/** Two one-operator queries as one query: {@code upstream.then(downstream)}, as the chain tests build them. */
final class Chains {
    private Chains() {
    }

    static <K, I, M, K2, O> TwsQuery<K, I, O> of(TwsQuery<K, I, M> upstream, TwsQuery<K2, M, O> downstream) {
        return upstream.then(downstream);
    }
}
