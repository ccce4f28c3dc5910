# 03-bank-conflicts.gp: the demo's probe and tile Gram matrices (gnuplot -e "csv='slides/data/03-bank-conflicts.csv'").
# A CSV whose gpu line says "to be measured" (not yet run on a GPU) gives a placeholder.
if (!exists("csv")) csv = "slides/data/03-bank-conflicts.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
rows = system("sed -n 's/^# lab: .* of \\([0-9]*\\) rows of.*/\\1/p' " . csv)
set terminal svg size 1200,500 dynamic noenhanced font "Helvetica,15" background "white"
if (gpu eq "to be measured") {
    unset border; unset tics; unset key
    set label 1 "03-bank-conflicts: to be measured" at graph 0.5, 0.6 center font ",22"
    set label 2 "make figures on a GPU (or the reference demo with --csv " . csv . ", then make plots)" \
        at graph 0.5, 0.45 center
    plot [0:1] [0:1] NaN notitle
    exit
}
set datafile separator ","
set multiplot layout 1,2 title sprintf("Measured on %s", gpu)
set grid ytics
unset key
set style fill solid 0.85 border -1
set boxwidth 0.6
set xtics rotate by -25 font ",13"
set title "the probe: a warp's shared reads, time against the row pattern"
set ylabel "slowdown (x)"
set logscale y
set yrange [0.5:64]
plot "< grep '^probe' " . csv using 0:6:(0.6):($3 > 1 ? 0xd62728 : 0x2ca02c):xtic(2) with boxes lc rgb variable, \
     "< grep '^probe' " . csv using 0:6:(sprintf("%.1fx (%d)", $6, $3)) with labels offset 0,0.8 font ",13"
unset logscale y
set rmargin 8
set title sprintf("tile Gram matrices of %s rows of 32: time", rows)
set ylabel "ms"
set autoscale y
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
plot "< grep '^tile gram' " . csv using 0:4:(0.6):(int($0) % 2 ? 0x2ca02c : 0xd62728):xtic(2) with boxes lc rgb variable, \
     "< grep '^tile gram' " . csv using 0:4:(sprintf("%.3f ms", $4)) with labels offset 0,0.8 font ",13"
unset multiplot
