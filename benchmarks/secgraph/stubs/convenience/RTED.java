// privlab stub (our code, not SecGraph's): SecGraph's RandomizedSpanningTree attack calls the
// RTED tree-edit-distance library (Pawlik & Augsten), which SecGraph's public source does not
// ship.  Only the one method SecGraph calls is declared, and it refuses to run: the stub can make
// that attack fail loudly, never change its result.  No other SecGraph path reaches it.
package convenience;

import common.Pair;
import java.util.HashMap;
import java.util.LinkedList;

public final class RTED {
    private RTED() {}

    public static Pair<Double, LinkedList<int[]>> computeDistanceAndMapping(
            String t1, String t2, HashMap<Integer, Integer> map) {
        throw new UnsupportedOperationException(
                "RTED is not part of SecGraph's public source (privlab build stub)");
    }
}
