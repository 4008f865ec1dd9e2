package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The undo log: one undo per (store, key) and batch, whether the pair is among the first few a
 * batch saves or past them, and a rollback that puts every key back as the batch found it.
 */
class JournalTest {
    private final Journal journal = new Journal();

    private static Bytes key(int i) {
        return new Bytes(("k" + i).getBytes(StandardCharsets.UTF_8));
    }

    /** A store that writes through the journal as the state variables do. */
    private final class Store {
        final Map<Bytes, Integer> data = new HashMap<>();

        void put(Bytes key, int value) {
            if (journal.firstWrite(this, key)) {
                Integer before = data.get(key);
                journal.push(() -> {
                    if (before == null) {
                        data.remove(key);
                    } else {
                        data.put(key, before);
                    }
                });
            }
            data.put(key, value);
        }
    }

    @Test
    void a_pair_is_saved_once_per_batch_among_the_first_few_and_past_them() {
        Store a = new Store();
        Store b = new Store();
        List<Boolean> first = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 10; i++) {
                first.add(journal.firstWrite(a, key(i)));
                first.add(journal.firstWrite(b, key(i)));
            }
        }
        assertThat(first.subList(0, 20)).containsOnly(true);
        assertThat(first.subList(20, 40)).containsOnly(false);
        assertThat(journal.firstWrite(a, new Bytes(key(3).array().clone()))).as("an equal key, another object").isFalse();

        journal.commit();
        assertThat(journal.firstWrite(a, key(0))).as("a new batch saves again").isTrue();
        assertThat(journal.firstWrite(b, key(9))).isTrue();
    }

    @Test
    void rollback_restores_every_key_as_the_batch_found_it() {
        Store a = new Store();
        Store b = new Store();
        for (int i = 0; i < 10; i++) {
            a.put(key(i), i);
        }
        journal.commit();
        Map<Bytes, Integer> committed = new HashMap<>(a.data);

        for (int i = 0; i < 12; i++) { // the first four pairs in the small buffer, the rest in sets
            a.put(key(i), 100 + i);
            a.put(key(i), 200 + i);
            b.put(key(i), i);
        }
        journal.rollback();

        assertThat(a.data).isEqualTo(committed);
        assertThat(b.data).isEmpty();
        assertThat(journal.firstWrite(a, key(0))).as("the rollback ends the batch").isTrue();
    }
}
