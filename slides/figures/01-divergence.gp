# 01-divergence.gp: the demo's table as bars (gnuplot -e "csv='slides/data/01-divergence.csv'").
# Time per variant, in pairs: the given kernel (red) and what improves on it (green); the
# trap's pair in grey. The label on each bar is the speedup over its pair's given kernel.
if (!exists("csv")) csv = "slides/data/01-divergence.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,400 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("2^24 elements, blocks of 256 threads, on %s (lower is better)", gpu)
set ylabel "time (ms)"
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
set xtics rotate by -20 font ",17" noenhanced
set bmargin 6
set ytics 0.4
unset key
# grey: the trap (same code, different constants); red: the given kernels; green: the tasks
color(name, input) = strstrt(name, "same_code") ? 0x999999 : \
    (name eq "branch_by_lane" || (name eq "classify" && input eq "random") || name eq "block_products_interleaved") ? 0xd62728 : 0x2ca02c
label(name, input) = input eq "partitioned" ? sprintf("%s (partitioned input)", name) : name
plot csv using 0:3:(0.6):(color(strcol(1), strcol(2))):xtic(label(strcol(1), strcol(2))) with boxes lc rgb variable, \
     csv using 0:3:(sprintf("%.2fx", $5)) with labels offset 0,0.8 font ",17"
