// privlab's timing harness for SecGraph's RST (our code, not SecGraph's): runs
// deAnonymize.RandomizedSpanningTree.randomSpanTree exactly as SecGraph's command line does
// (-m d -a RST: RandomizedSpanningTree.runRSP reads gA as the "comm" graph and gB as the
// "social" one with common.Graph.readUndirectedGraph, the seeds with Graph.getSeeds, then calls
// randomSpanTree(social, comm, n, seeds, out)), and times that call alone, so that
// benchmarks/bench_graph_attacks.py can set its attack-call CPU beside privlab's.  The output
// file is SecGraph's own (written by randomSpanTree: the aligned pairs, "number correct = N").
//
//   java -cp secgraph-rst.jar privlab.RstTimer gA gB seeds out TREES
//
// Prints "ATTACK_ONLY wall_s=<s> cpu_s=<s>" on stderr: the call's wall time and the JVM's
// process CPU time over it (every thread: the main one, JIT compilers, GC).
// Built by benchmarks/secgraph/build_rst.sh with the RTED adapter.
package privlab;

import common.Graph;
import deAnonymize.RandomizedSpanningTree;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.HashSet;

public final class RstTimer {
    private RstTimer() {}

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: RstTimer gA gB seeds out TREES");
            System.exit(2);
        }
        HashMap<Integer, HashSet<Integer>> comm = Graph.readUndirectedGraph(args[0]);
        HashMap<Integer, HashSet<Integer>> social = Graph.readUndirectedGraph(args[1]);
        HashMap<Integer, Integer> seeds = Graph.getSeeds(args[2]);
        int trees = Integer.parseInt(args[4]);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        RandomizedSpanningTree.randomSpanTree(social, comm, trees, seeds, args[3]);
        long t1 = System.nanoTime();
        long cpu1 = processCpuNanos();
        System.err.println("ATTACK_ONLY wall_s=" + (t1 - t0) / 1e9 + " cpu_s=" + (cpu1 - cpu0) / 1e9);
    }
}
