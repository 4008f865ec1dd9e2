package com.example.doors;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;

/** A door opened or closed at a time: the job's input rows. */
public class DoorEvent implements Serializable {
    private String door;
    private boolean open;
    private Timestamp ts;

    public DoorEvent() {
    }

    public static DoorEvent opened(String door, Instant at) {
        return event(door, true, at);
    }

    public static DoorEvent closed(String door, Instant at) {
        return event(door, false, at);
    }

    private static DoorEvent event(String door, boolean open, Instant at) {
        DoorEvent e = new DoorEvent();
        e.door = door;
        e.open = open;
        e.ts = Timestamp.from(at);
        return e;
    }

    public String getDoor() {
        return door;
    }

    public void setDoor(String door) {
        this.door = door;
    }

    public boolean isOpen() {
        return open;
    }

    public void setOpen(boolean open) {
        this.open = open;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp ts) {
        this.ts = ts;
    }
}
