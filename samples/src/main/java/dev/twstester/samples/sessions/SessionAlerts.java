package dev.twstester.samples.sessions;

import dev.twstester.TwsQuery;

/**
 * A query of two stateful operators: page views become sessions per user ({@link UserSessions}),
 * and the sessions, regrouped by the page they landed on, raise a {@link PageAlert} when most of an
 * hour's sessions on a page bounced ({@link BounceAlerts}). As Spark plans it:
 *
 * <pre>{@code
 * views.withWatermark("ts", "5 minutes")
 *      .groupByKey(PageView::getUser).transformWithState(new UserSessions(), EventTime, Update, "closedAt")
 *      .groupByKey(Session::getLandingPage).transformWithState(new BounceAlerts(), EventTime, Update)
 * }</pre>
 *
 * Run it whole: {@code new TwsSimulator<>(SessionAlerts.query())}; {@code sim.state()} is the
 * sessions', {@code sim.state(1)} the pages' state, and each batch's {@code operators()} show
 * what each operator did.
 */
public final class SessionAlerts {
    private SessionAlerts() {
    }

    /** Sessions per user, then bounce alerts per landing page. */
    public static TwsQuery<String, PageView, PageAlert> query() {
        return UserSessions.query().then(BounceAlerts.downstream());
    }
}
