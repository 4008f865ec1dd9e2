package dev.twstester.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

/**
 * The processor of the recorded ProcessingTime runs: input rows are "key,command" strings and
 * every command exercises one rule. Its log lines are the ones recorded on real Spark 4.2.0.
 */
public class ExperimentProcessor extends StatefulProcessor<String, String, String> {
    private transient ValueState<Long> count;
    private transient MapState<String, Long> smap;
    private transient MapState<Integer, Long> imap;
    private transient ListState<String> lst;
    private transient ValueState<String> tv1;
    private transient ListState<String> tl1;
    private transient MapState<String, String> tm1;
    private int localCounter = 0;

    @Override
    public void init(OutputMode om, TimeMode tm) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        smap = getHandle().getMapState("smap", Encoders.STRING(), Encoders.LONG(), TTLConfig.NONE());
        imap = getHandle().getMapState("imap", Encoders.INT(), Encoders.LONG(), TTLConfig.NONE());
        lst = getHandle().getListState("lst", Encoders.STRING(), TTLConfig.NONE());
        TTLConfig ttl = tm.equals(TimeMode.ProcessingTime()) ? new TTLConfig(Duration.ofMillis(3000)) : TTLConfig.NONE();
        tv1 = getHandle().getValueState("tv1", Encoders.STRING(), ttl);
        tl1 = getHandle().getListState("tl1", Encoders.STRING(), ttl);
        tm1 = getHandle().getMapState("tm1", Encoders.STRING(), Encoders.STRING(), ttl);
        Log.add("init counter=" + localCounter + " batch=" + getHandle().getQueryInfo().getBatchId());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues t) {
        localCounter++;
        List<String> in = Log.list(rows);
        Log.add("input key=" + key + " " + Log.tv(t) + " batch=" + getHandle().getQueryInfo().getBatchId()
                + " rows=" + in + " counter=" + localCounter);
        List<String> out = new ArrayList<>();
        for (String r : in) {
            String cmd = r.substring(r.indexOf(',') + 1);
            run(key, cmd, t);
            Long c = count.get();
            count.update(c == null ? 1L : c + 1);
            out.add("in:" + key + ":" + cmd);
        }
        return Log.it(out);
    }

    private void run(String key, String cmd, TimerValues t) {
        if (cmd.startsWith("reg:")) {
            getHandle().registerTimer(Long.parseLong(cmd.substring(4)));
        } else if (cmd.startsWith("del:")) {
            getHandle().deleteTimer(Long.parseLong(cmd.substring(4)));
        } else if (cmd.startsWith("smap:")) {
            for (String kv : cmd.substring(5).split(";")) {
                String[] p = kv.split("=");
                smap.updateValue(p[0], Long.parseLong(p[1]));
            }
        } else if (cmd.startsWith("imap:")) {
            for (String kv : cmd.substring(5).split(";")) {
                String[] p = kv.split("=");
                imap.updateValue(Integer.parseInt(p[0]), Long.parseLong(p[1]));
            }
        } else if (cmd.startsWith("lst:")) {
            for (String v : cmd.substring(4).split(";")) {
                lst.appendValue(v);
            }
        } else if (cmd.equals("show")) {
            Log.add("  show key=" + key + " timers=" + Log.list(getHandle().listTimers()) + " smap="
                    + Log.list(smap.iterator()) + " imap=" + Log.list(imap.iterator()) + " lst=" + Log.list(lst.get())
                    + " smapExists=" + smap.exists());
        } else if (cmd.startsWith("ttlset:")) {
            String v = cmd.substring(7);
            tv1.update(v);
            tl1.appendValue(v);
            tm1.updateValue(v, v);
        } else if (cmd.equals("ttlget")) {
            Log.add("  ttlget key=" + key + " " + Log.tv(t) + " tv1=" + tv1.get() + " exists=" + tv1.exists() + " tl1="
                    + Log.list(tl1.get()) + " tl1exists=" + tl1.exists() + " tm1=" + Log.list(tm1.iterator())
                    + " tm1exists=" + tm1.exists());
        } else if (cmd.equals("smapclear")) {
            for (String k : Log.list(smap.keys())) {
                smap.removeKey(k);
            }
            Log.add("  after remove all smap.exists=" + smap.exists());
        } else if (cmd.equals("nullvalue")) {
            count.update(null);
            Log.add("  after update(null) get=" + count.get() + " exists=" + count.exists());
        } else if (cmd.equals("nulllist")) {
            lst.appendValue(null);
        } else if (cmd.equals("emptylist")) {
            lst.put(new String[0]);
        } else if (cmd.equals("getstate")) {
            getHandle().getValueState("late", Encoders.LONG(), TTLConfig.NONE());
        } else if (cmd.equals("boom")) {
            throw new IllegalStateException("user boom");
        }
    }

    @Override
    public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues t, ExpiredTimerInfo info) {
        long exp = info.getExpiryTimeInMs();
        Log.add("timer key=" + key + " exp=" + exp + " " + Log.tv(t) + " batch=" + getHandle().getQueryInfo().getBatchId()
                + " timersNow=" + Log.list(getHandle().listTimers()));
        if (key.startsWith("deleter")) {
            getHandle().deleteTimer(exp + 300);
            Log.add("  deleted " + (exp + 300) + " now=" + Log.list(getHandle().listTimers()));
        }
        if (key.startsWith("rereg")) {
            getHandle().registerTimer(exp);
            Log.add("  re-registered same " + exp);
        }
        if (key.startsWith("chain") && exp < 100000) {
            getHandle().registerTimer(exp - 500);
            getHandle().registerTimer(exp + 100000);
        }
        return Log.it(Arrays.asList("timer:" + key + ":" + exp));
    }

    @Override
    public void close() {
        Log.add("close");
    }
}
