package dev.twstester.property;

import java.time.Instant;
import java.util.Objects;

/**
 * One generated input event, before it becomes a row of the user's input type: a grouping key,
 * an event time and a variant (which of the processor's event kinds it is, e.g. 0 = "add",
 * 1 = "checkout"). An {@link EventFactory} turns it into a row.
 *
 * <pre>{@code
 * GenEvent e = new GenEvent("u1", Instant.parse("2024-01-01T00:00:05Z").toEpochMilli(), 1);
 * CartEvent row = factory.create(e.key(), e.eventTimeMs(), e.variant());
 * }</pre>
 *
 * @param key         the grouping key
 * @param eventTimeMs the event time in epoch milliseconds
 * @param variant     the event kind, {@code 0 <= variant}
 */
public record GenEvent(String key, long eventTimeMs, int variant) {
    public GenEvent {
        Objects.requireNonNull(key, "key must not be null");
        if (variant < 0) {
            throw new IllegalArgumentException("variant must not be negative: " + variant);
        }
    }

    /** The event time as an instant. */
    public Instant eventTime() {
        return Instant.ofEpochMilli(eventTimeMs);
    }

    /** This event with another event time. */
    public GenEvent withEventTimeMs(long newEventTimeMs) {
        return new GenEvent(key, newEventTimeMs, variant);
    }

    /** This event with another key. */
    public GenEvent withKey(String newKey) {
        return new GenEvent(newKey, eventTimeMs, variant);
    }

    /** This event with another variant. */
    public GenEvent withVariant(int newVariant) {
        return new GenEvent(key, eventTimeMs, newVariant);
    }
}
