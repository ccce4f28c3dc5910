# 13-occupancy.gp: the demo's sweep as a curve (gnuplot -e "csv='slides/data/13-occupancy.csv'"):
# the walk's bandwidth against the warps each SM holds (walk_sized rows). The title names the
# GPU the CSV was measured on; the dashed line is cudaMemcpy.
if (!exists("csv")) csv = "slides/data/13-occupancy.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
size = system("sed -n 's/^# lab: 13-occupancy, //p' " . csv)
memcpy = real(system("sed -n 's/^# memcpy_gbps: \\([0-9.]*\\).*/\\1/p' " . csv))
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,405 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("The walk on %s, %s", gpu, size)
set xlabel "warps per SM (blocks per SM x warps per block)"
set ylabel "effective bandwidth (GB/s)"
set xrange [0:68]
set xtics (2, 4, 8, 16, 24, 32, 48, 64)
set yrange [0:memcpy * 1.12]
set grid ytics
unset key
set arrow from graph 0, first memcpy to graph 1, first memcpy nohead dt 2 lw 2 lc rgb "#555555"
set label sprintf("cudaMemcpy %.0f GB/s", memcpy) at graph 0.02, first memcpy * 1.04 textcolor rgb "#555555"
# columns: variant, threads, blocks_per_sm, warps_per_sm, time_ms, GB/s, ...; the sweep only
sweep(col) = strcol(1) eq "walk_sized" ? column(col) : NaN
plot csv using (sweep(4)):(sweep(6)) with linespoints lw 3 pt 7 ps 1.2 lc rgb "#1f77b4", \
     csv using (sweep(4)):(sweep(6)):(sprintf("%.0f", column(6))) with labels offset 0,1 font ",17"
