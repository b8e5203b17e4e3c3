// privlab's timing harness (our code, not the authors'): runs Nilizadeh et al.'s community-enhanced
// de-anonymization the way SecGraph's `-m d -a Community ... -Overlap true` does (it calls
// deAnon.matching.Comm_Enhanced.main, which runs communityAware_deAnon_alg_overlappedNodeSets), but
// stops before the degree-of-anonymity statistics that main computes afterwards, times the
// attack call alone, and writes the mapping, which Comm_Enhanced never writes (only success rates).
//
//   java -cp secgraph-cli.jar privlab.CommunityTimer BASE1 BASE2 CLIQUES RESULTS_DIR NUM_SEEDS OUT
//
// BASEi.net: Pajek graphs (vertex names = true identities); BASEi.tree: Infomap-format
// communities; CLIQUES: the clique file (find-cliques.py's format).  OUT: "name1 name2" per
// mapped pair, then "<OUT> correct/mapped |G1| |G2|" (correct: equal names), as SecGraph's -gO.
// Prints "ATTACK_ONLY wall_s=<s> cpu_s=<s>" on stderr (the JVM's process CPU over the call).
// Compiled only when benchmarks/secgraph/build.sh gets DEANON_SRC.
package privlab;

import deAnon.matching.Comm_Enhanced;
import deAnon.matching.MyGraph;
import java.io.BufferedWriter;
import java.io.FileWriter;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.util.Map;

public final class CommunityTimer {
    private CommunityTimer() {}

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: CommunityTimer BASE1 BASE2 CLIQUES RESULTS_DIR NUM_SEEDS OUT");
            System.exit(2);
        }
        MyGraph g1 = new MyGraph(args[0]);
        MyGraph g2 = new MyGraph(args[1]);
        Comm_Enhanced cbm = new Comm_Enhanced(g1, g2);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        // Comm_Enhanced.main's argument list: dir, seeds, noise, exp, net1, net2, cliques,
        // prob/deg, overlapped
        cbm.communityAware_deAnon_alg_overlappedNodeSets(new String[] {args[3], args[4], "0.0",
                "1", args[0], args[1], args[2], "false", "true"});
        long t1 = System.nanoTime();
        long cpu1 = processCpuNanos();
        Field f1 = Comm_Enhanced.class.getDeclaredField("g1");
        f1.setAccessible(true);
        Field f2 = Comm_Enhanced.class.getDeclaredField("g2");
        f2.setAccessible(true);
        MyGraph h1 = (MyGraph) f1.get(cbm);
        MyGraph h2 = (MyGraph) f2.get(cbm);
        int right = 0;
        try (BufferedWriter w = new BufferedWriter(new FileWriter(args[5]))) {
            for (Map.Entry<String, String> e : cbm.nodeMapping.entrySet()) {
                String a = h1.getNodeName(e.getKey());
                String b = h2.getNodeName(e.getValue());
                if (a.equals(b)) right++;
                w.write(a + " " + b + "\n");
            }
            w.write(args[5] + " " + right + "/" + cbm.nodeMapping.size() + " "
                    + h1.getNodeIds().size() + " " + h2.getNodeIds().size() + "\n");
        }
        System.err.println("ATTACK_ONLY wall_s=" + (t1 - t0) / 1e9 + " cpu_s=" + (cpu1 - cpu0) / 1e9);
    }
}
