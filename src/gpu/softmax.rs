//! The softmax suite (the article's RMS-scaled softmax across six shapes, four variants, two
//! submission modes) and the `softmax-bench` suite (plain and RMS-scaled fused kernels side
//! by side with a device copy and cuDNN, on the same inputs).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use cudarc::cudnn::{Cudnn, SoftmaxForward, TensorDescriptor, sys as dnn};
use cudarc::driver::{CudaFunction, CudaGraph, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg, sys};

use super::common::{CaseMeta, Collected, GraphRecord, Rotation, SetRotation, Settings, cfg, fixture_seed, random_input, rotation_sets};
use super::device::Gpu;
use super::harness;
use super::reference::{self, Compared, Criterion};

/// The six shapes, rows × columns.
pub const SHAPES: [(usize, usize); 6] = [(4096, 4096), (4096, 128), (32768, 1024), (1024, 32768), (16384, 512), (8, 262144)];
/// ε inside the root mean square.
pub(crate) const EPS: f32 = 1e-6;
/// Declared before any run: the largest element-wise relative error against FP64.
pub(crate) const TOLERANCE: f64 = 1e-5;

/// Which form of the fused kernel a shape gets. The rule and its reasons are in
/// `kernels/softmax.cu`; this is the same rule in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fused {
    /// A warp per row, `v` float4s per lane (cols = 128 v).
    Warp { v: usize },
    /// A group of `lanes` lanes per row, `v` float4s per lane (cols = 4 · lanes · v), blocks of
    /// `threads`: a warp holds 32 / lanes rows, and each reduction takes log2(lanes) shuffles
    /// for all of them (issue 16, version 14).
    Narrow { lanes: usize, v: usize, threads: u32 },
    /// A block of `threads` per row, `v` float4s per thread (cols = 4 · threads · v).
    Reg { v: usize, threads: u32 },
    /// The row split over `split` cooperative blocks of 1024 threads (cols = 16384 · split).
    Split { split: usize },
    /// One block per row, the row re-read from global memory.
    Block,
    /// As `Reg`, but the plain softmax reduces once (online max and sum); the RMS-scaled
    /// softmax keeps `Reg`'s kernel.
    Reg1 { v: usize, threads: u32 },
    /// cols == 32768: persistent blocks of 1024 threads, one per SM, the next row prefetched
    /// into shared memory by the bulk copy engine while this one is worked on in registers.
    Pipe,
    /// A cluster of `cs` blocks of `threads` per row, `v` float4s per thread
    /// (cols = 4 · cs · threads · v), partials through distributed shared memory.
    Cluster { cs: usize, v: usize, threads: u32 },
    /// cols == 32768: a block of `threads` per row, `vr` float4s a thread in registers and
    /// `vs` in shared memory (cols = 4 · threads · (vr + vs)), two blocks per SM (three of 256
    /// threads); `ld` picks the loads' cache hints (0 streaming, 1 default, 2 default with a
    /// 256-byte L2 prefetch). `fit`: the same kernel under another name, launched with the
    /// smallest shared-memory carveout that holds its blocks instead of the largest, so that
    /// the rest of the SM's 256 KB stays L1 (issue 16, version 9).
    Mix { vr: usize, vs: usize, threads: u32, ld: u8, fit: bool },
    /// The row split over cooperative blocks of `threads` with `v` float4s a thread, meeting
    /// through a per-row counter instead of grid-wide syncs (split = cols / (4 · threads · v)).
    /// `coop` false launches the same kernel without the cooperative attribute: every block is
    /// then resident only because the grid fits the device at once and nothing else runs,
    /// which no launch promises (a candidate, to measure what the attribute costs).
    Flag { v: usize, threads: u32, coop: bool },
    /// As `Flag`, but each block holds a piece of two rows (g and g + rows / 2), so that one
    /// row's wait for its row-mates overlaps the other row's loads or stores.
    Pair { v: usize, threads: u32 },
    /// cols == 32768: the mixed form over a cluster of two blocks a row, each holding half of
    /// it (`vr` float4s a thread in registers, `vs` in shared memory), four blocks per SM.
    ClMix { vr: usize, vs: usize, threads: u32 },
    /// cols == 32768: the mixed form with persistent blocks (two per SM) that work through
    /// rows blockIdx, blockIdx + grid, ..., each slot refilled with the next row's values as
    /// soon as this row's value in it is stored.
    MixP { vr: usize, vs: usize, threads: u32 },
    /// As `Pair`, but the second row's loads are issued only after the first row's partials
    /// are published, so that they land during the first row's wait.
    Stag { v: usize, threads: u32 },
    /// As `Flag`, but the blocks of row r start loading r · `delay` SM clocks after the
    /// launch, so that rows finish reading one after another and their stores overlap later
    /// rows' reads.
    FlagD { v: usize, threads: u32, delay: u32 },
    /// As `Mix` with the default loads, but the second block each SM takes in the first wave
    /// starts `delay` SM clocks late, so that the two blocks of an SM reduce at different times.
    MixD { vr: usize, vs: usize, threads: u32, delay: u32 },
    /// As `Flag`, but row-mates meet through tagged slots: each partial is stored with the
    /// launch's tag in one 64-bit word, so the poll that finds every tag current has the
    /// partials, with no counter and no fence (split = cols / (4 · threads · v)).
    Slot { v: usize, threads: u32 },
    /// As `Slot`, but the RMS-scaled softmax meets once: each block sends the moments of its
    /// exponentials at its own guess of the scale, from which every row-mate rebuilds the
    /// row's sum, falling back to the second meeting where the series' bound is too large;
    /// `exact` always falls back (split = cols / (4 · threads · v) <= 32).
    Mom { v: usize, threads: u32, exact: bool },
    /// Rows == 8: every block of 256 threads holds a float4 a thread of every row (cols / 1024
    /// blocks), loads the rows in order, and stores row r once it is complete, `lag` rows
    /// later, while later rows still arrive; a row's blocks meet through the last of them to
    /// count, which combines the tagged partials.
    Ord { lag: usize },
    /// Rows == 8, cols == 262144: every block of `threads` holds `v` float4s a thread of every
    /// row, publishes each row's partial as soon as that row has arrived, and stores each row
    /// as soon as its meeting is complete; the meetings never wait on one another (every block
    /// polls all partials of a row, one tagged 64-bit word each). One warp polls, the first
    /// few pending rows a pass; `wide`: one warp for each group of rows, so that a pass polls
    /// every pending row.
    Fan { v: usize, threads: u32, wide: bool },
    /// A rule form (`of`: warp per row, or a block per row reducing twice or once) with at
    /// most `per_sm` blocks resident on an SM: the launch asks for dynamic shared memory that
    /// the kernel does not use, so that no more fit.
    Capped { of: Base, v: usize, threads: u32, per_sm: u32 },
    /// cols == 32768: the mixed form (`vr`, `vs`, `threads`, default loads) for all rows but
    /// the last `tail`, which are split into pieces of `pv` float4s a thread that meet through
    /// tagged slots, so that the kernel ends on pieces of rows rather than whole rows. The
    /// pieces take their place from a ticket counter in the form's slot region.
    Tail { vr: usize, vs: usize, threads: u32, tail: usize, pv: usize },
    /// cols == 32768: the mixed form (`vr`, `vs`, `threads`, default loads) for all rows but
    /// the last `tail`, each of its blocks letting the next kernel start once it has started;
    /// the last rows go to that next kernel, a cluster of `cs` blocks of 512 threads a row
    /// (`partner`), launched as a programmatic dependent so that its blocks take the SM slots
    /// the mixed form's last rows leave idle.
    Handoff { vr: usize, vs: usize, threads: u32, tail: usize, cs: usize },
    /// cols == 32768: the mixed form (`vr`, `vs`, `threads`, default loads) for all rows but
    /// the last `tail`, which are split into pieces of `pv` float4s a thread that never wait:
    /// each publishes its partial and counts itself on the row's counter, and the piece that
    /// counts last writes the whole row, reading the other pieces again from the L2.
    Last { vr: usize, vs: usize, threads: u32, tail: usize, pv: usize },
    /// A rule form (`of`) compiled with other cache hints on its global loads (`ld`: 0
    /// streaming, 1 default, 3 the L2 only, 4 the read-only path) and stores (`st`: 0
    /// streaming, 1 default write-back), launched exactly as the form it mirrors (issue 16,
    /// version 15). The rule's own pairing is among them as a control under another name.
    Hint { of: Hinted, ld: u8, st: u8 },
    /// cols == 262144: a cluster of 16 blocks of 1024 threads for each row but the last, 16
    /// values a thread in registers, row-mates meeting in distributed shared memory; the last
    /// row is shared by every block of the grid, at most a float4 a thread, its pieces meeting
    /// through tagged slots as the slot form's do (issue 16, version 20). Only `rows - 1`
    /// clusters of 16 need be resident at once, which is what the H200 holds at 8 rows. `pre`:
    /// the shared row's first poll is loaded before the own row's cluster meetings and read
    /// after them, and their barriers arrive relaxed; `cgwb`: L2-only loads and write-back
    /// stores instead of streaming ones (only with `pre`).
    ClShare { pre: bool, cgwb: bool },
}

/// The rule forms a `Hint` form mirrors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Hinted {
    Warp { v: usize },
    Reg { v: usize, threads: u32 },
    Mix { vr: usize, vs: usize, threads: u32 },
}

/// The hint pairings of the `Hint` forms and of the copies timed beside them, (load, store) as
/// in `Fused::Hint`: every load hint with every store hint.
pub(crate) const HINT_PAIRS: [(u8, u8); 8] = [(0, 0), (0, 1), (1, 0), (1, 1), (3, 0), (3, 1), (4, 0), (4, 1)];

/// Short names of the load and store hints, as in `Fused::Hint`.
fn hint_names(ld: u8, st: u8) -> (&'static str, &'static str) {
    let load = match ld {
        0 => "cs",
        1 => "ca",
        2 => "l2",
        3 => "cg",
        _ => "nc",
    };
    (load, if st == 0 { "cs" } else { "wb" })
}

impl Hinted {
    /// The form this one mirrors, with the rule's own hints.
    fn form(self) -> Fused {
        match self {
            Hinted::Warp { v } => Fused::Warp { v },
            Hinted::Reg { v, threads } => Fused::Reg { v, threads },
            Hinted::Mix { vr, vs, threads } => Fused::Mix { vr, vs, threads, ld: 1, fit: false },
        }
    }

    /// The rule form `form` as a `Hinted` one, where it is one of the three or already a
    /// hinted one of them (then the form it mirrors, whatever its hints).
    fn of(form: Fused) -> Option<Hinted> {
        match form {
            Fused::Hint { of, .. } => Some(of),
            Fused::Warp { v } => Some(Hinted::Warp { v }),
            Fused::Reg { v, threads } => Some(Hinted::Reg { v, threads }),
            Fused::Mix { vr, vs, threads, fit: false, .. } => Some(Hinted::Mix { vr, vs, threads }),
            _ => None,
        }
    }
}

/// The form a `Capped` form launches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Base {
    Warp,
    Reg,
    Reg1,
}

/// Shared memory an SM gives its blocks (228 KB on sm_90), and what the driver keeps of it for
/// each block (1 KB).
const SM_SHARED: u32 = 228 * 1024;
const BLOCK_RESERVED_SHARED: u32 = 1024;

/// Static shared memory of the block-per-row and mixed kernels: their 64-float reduction buffer.
const REDUCTION_SHARED: u32 = 64 * 4;

/// Row counter slots (one counter a row each) of the forms that meet through counters.
pub(crate) const COUNTER_SLOTS: usize = 18;

/// Regions of tagged slots, one for each `Slot` form (v in {2, 4, 8}, threads in {256, 512,
/// 1024}), each `Ord` form (lag 1, 2, 4), each `Fan` form (six), each `Tail` form
/// (TAIL_FORMS) and `Last` form (LAST_FORMS), each `Mom` form (MOM_FORMS), and each of the
/// three `ClShare` forms; each region holds as many words as the shape's largest user needs
/// (`Fused::slot_words`).
pub(crate) const SLOT_REGIONS: usize = 18 + TAIL_FORMS.len() + LAST_FORMS.len() + MOM_FORMS.len() + 3;

/// The `Mom` forms timed as candidates (issue 16, version 21): the rule's blocks, their
/// fallback-only control, and the 256-thread blocks of the same split.
const MOM_FORMS: [Fused; 3] = [Fused::Mom { v: 4, threads: 512, exact: false }, Fused::Mom { v: 4, threads: 512, exact: true }, Fused::Mom { v: 8, threads: 256, exact: false }];

/// Blocks of a `ClShare` form's cluster (kernels/softmax.cu compiles it in).
const CLSHARE_SIZE: usize = 16;

/// The `Handoff` forms timed as candidates (issue 16, version 11): the rule's two mixed forms,
/// each handing 66 or 132 rows to clusters of two or four blocks.
const HANDOFF_FORMS: [Fused; 6] = [
    Fused::Handoff { vr: 8, vs: 8, threads: 512, tail: 66, cs: 2 },
    Fused::Handoff { vr: 8, vs: 8, threads: 512, tail: 132, cs: 2 },
    Fused::Handoff { vr: 8, vs: 8, threads: 512, tail: 66, cs: 4 },
    Fused::Handoff { vr: 2, vs: 6, threads: 1024, tail: 66, cs: 2 },
    Fused::Handoff { vr: 2, vs: 6, threads: 1024, tail: 132, cs: 2 },
    Fused::Handoff { vr: 2, vs: 6, threads: 1024, tail: 66, cs: 4 },
];

/// The `Tail` forms timed as candidates (issue 16, version 11): the rule's two mixed forms,
/// each with a quarter of a wave's rows (66) or a wave's (132) split into four pieces, or 64
/// rows into eight.
const TAIL_FORMS: [Fused; 6] = [
    Fused::Tail { vr: 8, vs: 8, threads: 512, tail: 66, pv: 4 },
    Fused::Tail { vr: 8, vs: 8, threads: 512, tail: 132, pv: 4 },
    Fused::Tail { vr: 8, vs: 8, threads: 512, tail: 64, pv: 2 },
    Fused::Tail { vr: 2, vs: 6, threads: 1024, tail: 66, pv: 2 },
    Fused::Tail { vr: 2, vs: 6, threads: 1024, tail: 132, pv: 2 },
    Fused::Tail { vr: 2, vs: 6, threads: 1024, tail: 64, pv: 1 },
];

/// The `Last` forms timed as candidates (issue 16, version 13): the rule's two mixed forms,
/// each with none of its rows split (the control: the same kernel, whole rows only), or a
/// quarter of a wave's rows (66), half a wave's (132) or a wave's (264) split into four pieces.
/// The first call also timed 528 and all 1024 rows, and eight pieces (kernels/NOTES.md).
const LAST_FORMS: [Fused; 8] = [
    Fused::Last { vr: 8, vs: 8, threads: 512, tail: 0, pv: 4 },
    Fused::Last { vr: 8, vs: 8, threads: 512, tail: 66, pv: 4 },
    Fused::Last { vr: 8, vs: 8, threads: 512, tail: 132, pv: 4 },
    Fused::Last { vr: 8, vs: 8, threads: 512, tail: 264, pv: 4 },
    Fused::Last { vr: 2, vs: 6, threads: 1024, tail: 0, pv: 2 },
    Fused::Last { vr: 2, vs: 6, threads: 1024, tail: 66, pv: 2 },
    Fused::Last { vr: 2, vs: 6, threads: 1024, tail: 132, pv: 2 },
    Fused::Last { vr: 2, vs: 6, threads: 1024, tail: 264, pv: 2 },
];

/// The `Narrow` forms timed as candidates at 128 columns (issue 16, version 14): 8 lanes a row
/// (three shuffles a reduction) in blocks of 128 and 64 threads, 16 lanes (four) in blocks of
/// 256 and 128, and 4 lanes (two) in blocks of 64; 128 to 512 blocks at 4096 rows.
const NARROW_128: [Fused; 5] = [
    Fused::Narrow { lanes: 8, v: 4, threads: 128 },
    Fused::Narrow { lanes: 8, v: 4, threads: 64 },
    Fused::Narrow { lanes: 16, v: 2, threads: 256 },
    Fused::Narrow { lanes: 16, v: 2, threads: 128 },
    Fused::Narrow { lanes: 4, v: 8, threads: 64 },
];

/// Bytes of dynamic shared memory the `Pipe` form takes (one 32768-wide row).
pub(crate) const PIPE_SHARED: u32 = 32768 * 4;

/// How many blocks of the forms that need every block resident at once (a cooperative
/// launch) fit on the device at once: the tagged-slot form's 512-thread blocks, and the split
/// form's 1024-thread ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resident {
    pub(crate) slot: usize,
    pub(crate) split: usize,
}

impl Resident {
    /// As many as the H200's 132 SMs hold (two slot blocks and one split block an SM).
    #[cfg(test)]
    pub(crate) const H200: Resident = Resident { slot: 264, split: 132 };
    /// No limit: for naming the rule's forms, never for launching them.
    pub(crate) const ANY: Resident = Resident { slot: usize::MAX, split: usize::MAX };
}

/// The cache hints (load, store, as in `Fused::Hint`) of the rule's forms at 1024 and 4096
/// columns: loads through the L2 only (`ld.global.cg`) and write-back stores.
const RULE_HINTS: (u8, u8) = (3, 1);

/// The rule's slot form: few long rows, each split over blocks of 512 threads holding 16
/// values a thread (8192 columns a block).
const RULE_SLOT: Fused = Fused::Slot { v: 4, threads: 512 };

impl Fused {
    /// Chooses the form of the RMS-scaled (`rms`) or the plain softmax for a shape. The two
    /// differ only at 32768 columns, where the mixed form that keeps more of the row in
    /// registers is the faster plain softmax, and the one with more threads the faster
    /// RMS-scaled softmax (kernels/NOTES.md, versions 6 to 10). At 1024 and 4096 columns the
    /// warp and block forms load through the L2 only and store write-back (`RULE_HINTS`): under
    /// the fair protocol of versions 16 to 18 they beat the streaming pairing of both softmaxes
    /// there (version 19); at the other widths no pairing was shown faster.
    pub(crate) fn choose(rows: usize, cols: usize, resident: Resident, rms: bool) -> Fused {
        let (ld, st) = RULE_HINTS;
        match cols {
            1024 if rows.is_multiple_of(8) => Fused::Hint { of: Hinted::Warp { v: 8 }, ld, st },
            128 | 256 | 512 if rows.is_multiple_of(8) => Fused::Warp { v: cols / 128 },
            4096 => Fused::Hint { of: Hinted::Reg { v: 4, threads: 256 }, ld, st },
            8192 | 16384 => Fused::Reg { v: 4, threads: (cols / 16) as u32 },
            32768 if rms => Fused::Mix { vr: 2, vs: 6, threads: 1024, ld: 1, fit: false },
            32768 => Fused::Mix { vr: 8, vs: 8, threads: 512, ld: 1, fit: false },
            _ if cols.is_multiple_of(8192) && rows * RULE_SLOT.split(cols) <= resident.slot => RULE_SLOT,
            _ if cols.is_multiple_of(16384) && rows * (cols / 16384) <= resident.split => Fused::Split { split: cols / 16384 },
            _ => Fused::Block,
        }
    }

    pub(crate) fn kernel(&self, rms: bool) -> String {
        let flavour = if rms { "rms" } else { "plain" };
        match self {
            Fused::Warp { v } => format!("fused_warp_{flavour}_{v}"),
            Fused::Narrow { lanes, v, threads } => format!("fused_narrow_{flavour}_{lanes}_{v}_{threads}"),
            Fused::Reg { v, threads } => format!("fused_reg_{flavour}_{v}_{threads}"),
            Fused::Split { .. } => format!("fused_split_{flavour}"),
            Fused::Block => format!("fused_block_{flavour}"),
            Fused::Reg1 { v, threads } if !rms => format!("fused_reg1_plain_{v}_{threads}"),
            Fused::Reg1 { v, threads } => format!("fused_reg_rms_{v}_{threads}"),
            Fused::Pipe => format!("fused_pipe_{flavour}"),
            Fused::Cluster { cs, v, threads } => format!("fused_cl_{flavour}_{cs}_{v}_{threads}"),
            Fused::Mix { vr, vs, threads, ld, fit } => format!("fused_mix{}_{flavour}_{vr}_{vs}_{threads}_{ld}", if *fit { "f" } else { "" }),
            Fused::Flag { v, threads, .. } => format!("fused_flag_{flavour}_{v}_{threads}"),
            Fused::Pair { v, threads } => format!("fused_pair_{flavour}_{v}_{threads}"),
            Fused::ClMix { vr, vs, threads } => format!("fused_clmix_{flavour}_{vr}_{vs}_{threads}"),
            Fused::MixP { vr, vs, threads } => format!("fused_mixp_{flavour}_{vr}_{vs}_{threads}"),
            Fused::Stag { v, threads } => format!("fused_stag_{flavour}_{v}_{threads}"),
            Fused::FlagD { v, threads, .. } => format!("fused_flagd_{flavour}_{v}_{threads}"),
            Fused::MixD { vr, vs, threads, .. } => format!("fused_mixd_{flavour}_{vr}_{vs}_{threads}"),
            Fused::Slot { v, threads } => format!("fused_slot_{flavour}_{v}_{threads}"),
            Fused::Mom { v, threads, exact } => format!("fused_mom{}_{flavour}_{v}_{threads}", if *exact { "x" } else { "" }),
            Fused::ClShare { pre, cgwb } => format!("fused_clshare{}{}_{flavour}", if *pre { "p" } else { "" }, if *cgwb { "w" } else { "" }),
            Fused::Ord { lag } => format!("fused_ord_{flavour}_{lag}"),
            Fused::Fan { v, threads, wide } => format!("fused_fan{}_{flavour}_{v}_{threads}", if *wide { "w" } else { "" }),
            Fused::Tail { vr, vs, threads, pv, .. } => format!("fused_tail_{flavour}_{vr}_{vs}_{threads}_{pv}"),
            Fused::Last { vr, vs, threads, pv, .. } => format!("fused_last_{flavour}_{vr}_{vs}_{threads}_{pv}"),
            Fused::Handoff { vr, vs, threads, .. } => format!("fused_mixh_{flavour}_{vr}_{vs}_{threads}"),
            // The same kernel under its own name (kernels/softmax.cu), so that the cap's launch
            // attributes do not touch the rule's.
            Fused::Capped { of, v, threads, .. } => of.form(*v, *threads).kernel(rms).replacen("fused_", "fused_cap_", 1),
            Fused::Hint { of, ld, st } => {
                let form = match of {
                    Hinted::Warp { v } => format!("warp_{v}"),
                    Hinted::Reg { v, threads } => format!("reg_{v}_{threads}"),
                    Hinted::Mix { vr, vs, threads } => format!("mix_{vr}_{vs}_{threads}"),
                };
                format!("fused_hint_{flavour}_{form}_{ld}_{st}")
            }
        }
    }

    /// Threads per block of this form.
    pub(crate) fn threads(&self, cols: usize) -> u32 {
        match self {
            Fused::Warp { .. } | Fused::Capped { of: Base::Warp, .. } => 256,
            Fused::Capped { threads, .. } => *threads,
            Fused::Reg { threads, .. }
            | Fused::Reg1 { threads, .. }
            | Fused::Cluster { threads, .. }
            | Fused::Mix { threads, .. }
            | Fused::Flag { threads, .. }
            | Fused::Pair { threads, .. }
            | Fused::Narrow { threads, .. }
            | Fused::ClMix { threads, .. }
            | Fused::MixP { threads, .. }
            | Fused::Stag { threads, .. }
            | Fused::FlagD { threads, .. }
            | Fused::MixD { threads, .. }
            | Fused::Slot { threads, .. }
            | Fused::Mom { threads, .. }
            | Fused::Fan { threads, .. }
            | Fused::Tail { threads, .. }
            | Fused::Last { threads, .. }
            | Fused::Handoff { threads, .. } => *threads,
            Fused::Split { .. } | Fused::Pipe | Fused::ClShare { .. } => 1024,
            Fused::Ord { .. } => 256,
            Fused::Hint { of, .. } => of.form().threads(cols),
            Fused::Block => row_threads(cols),
        }
    }

    /// Dynamic shared memory of this form's launch.
    pub(crate) fn dynamic_shared(&self) -> u32 {
        match self {
            Fused::Pipe => PIPE_SHARED,
            Fused::Mix { vs, threads, .. }
            | Fused::ClMix { vs, threads, .. }
            | Fused::MixP { vs, threads, .. }
            | Fused::MixD { vs, threads, .. }
            | Fused::Tail { vs, threads, .. }
            | Fused::Last { vs, threads, .. }
            | Fused::Handoff { vs, threads, .. } => 16 * *vs as u32 * threads,
            // Each block's share of the SM's shared memory, less what the driver keeps and the
            // kernel's own 64 floats (none in the warp kernel): a block more would not fit.
            Fused::Capped { of, per_sm, .. } => SM_SHARED / per_sm - BLOCK_RESERVED_SHARED - of.own_shared(),
            Fused::Hint { of, .. } => of.form().dynamic_shared(),
            _ => 0,
        }
    }

    /// Blocks a mixed form plans to keep on an SM (three of 256 threads, two otherwise).
    pub(crate) fn mix_per_sm(&self) -> u32 {
        if self.threads(32768) == 256 { 3 } else { 2 }
    }

    /// The preferred shared-memory carveout of a form launched with dynamic shared memory, in
    /// percent of the most an SM can give: all of it, except for a `fit` mixed form, which asks
    /// for the least that holds its blocks (their dynamic and static shared memory and the
    /// driver's 1 KB each), so that the rest of the SM's 256 KB stays L1.
    pub(crate) fn carveout(&self) -> i32 {
        match self {
            Fused::Mix { fit: true, .. } => {
                let need = self.mix_per_sm() * (self.dynamic_shared() + REDUCTION_SHARED + BLOCK_RESERVED_SHARED);
                need.div_ceil(SM_SHARED / 100).min(100) as i32
            }
            _ => 100,
        }
    }

    /// Blocks per row of the forms that split a row over cooperative blocks (1 otherwise).
    pub(crate) fn split(&self, cols: usize) -> usize {
        match self {
            Fused::Split { split } => *split,
            Fused::Flag { v, threads, .. } | Fused::FlagD { v, threads, .. } | Fused::Slot { v, threads } | Fused::Mom { v, threads, .. } => cols / (4 * v * *threads as usize),
            Fused::Pair { v, threads } | Fused::Stag { v, threads } => cols / (4 * v * *threads as usize),
            Fused::Ord { .. } => cols / 1024,
            Fused::Fan { v, threads, .. } => cols / (4 * v * *threads as usize),
            _ => 1,
        }
    }

    /// Blocks of one launch.
    pub(crate) fn blocks(&self, rows: usize, cols: usize) -> usize {
        match self {
            Fused::Warp { .. } | Fused::Capped { of: Base::Warp, .. } => rows.div_ceil(8),
            Fused::Narrow { lanes, threads, .. } => rows.div_ceil(*threads as usize / lanes),
            Fused::Pair { .. } | Fused::Stag { .. } => rows / 2 * self.split(cols),
            Fused::Cluster { cs, .. } => rows * cs,
            Fused::ClShare { .. } => rows.saturating_sub(1) * CLSHARE_SIZE,
            Fused::ClMix { .. } => rows * 2,
            // Every block holds a piece of every row.
            Fused::Ord { .. } | Fused::Fan { .. } => self.split(cols),
            Fused::Tail { tail, .. } | Fused::Last { tail, .. } => rows - tail + tail * self.pieces(cols),
            // The mixed form's blocks; the partner launches its own.
            Fused::Handoff { tail, .. } => rows - tail,
            Fused::Hint { of, .. } => of.form().blocks(rows, cols),
            _ => rows * self.split(cols),
        }
    }

    /// Pieces each split row of a `Tail` or `Last` form is cut into (1 for every other form).
    pub(crate) fn pieces(&self, cols: usize) -> usize {
        match self {
            Fused::Tail { threads, pv, .. } | Fused::Last { threads, pv, .. } => cols / (4 * pv * *threads as usize),
            _ => 1,
        }
    }

    /// The cluster form a `Handoff` form gives its last rows to: `cs` blocks of 512 threads a
    /// row, 32768 / (2048 cs) float4s a thread.
    pub(crate) fn partner(&self) -> Option<Fused> {
        match self {
            Fused::Handoff { cs, .. } => Some(Fused::Cluster { cs: *cs, v: 16 / cs, threads: 512 }),
            _ => None,
        }
    }

    /// Words of its slot region a form writes at this shape (0 for a form without one): three
    /// a block of a row and five a row for the slot, `Ord` and `Fan` forms (an `Ord` form's
    /// results and counters after its partials; a `Fan` form uses two a block and row), and for
    /// a `Tail` form its ticket counter and three a piece of its split rows, for a `Last` form
    /// a counter and a partial a piece of each split row.
    pub(crate) fn slot_words(&self, rows: usize, cols: usize) -> usize {
        match self {
            Fused::Tail { tail, .. } => 1 + 3 * tail * self.pieces(cols),
            Fused::Last { tail, .. } => tail * (1 + self.pieces(cols)),
            // Three words a block of the grid: every block holds a piece of the shared row.
            Fused::ClShare { .. } => 3 * self.blocks(rows, cols),
            // Ten words a block: nine kinds at the one meeting, one at the fallback's.
            Fused::Mom { .. } => 10 * rows * self.split(cols),
            _ if self.slot_region().is_some() => 3 * rows * self.split(cols) + 5 * rows,
            _ => 0,
        }
    }

    /// Which row counters a form that meets through them counts on. A counter only works for
    /// one split (each wait rounds up to a multiple of it), so every such form has its own.
    pub(crate) fn counter_slot(&self) -> Option<usize> {
        match self {
            // Both launches of one kernel count alike (the same split), so they may share.
            Fused::Flag { v, threads, .. } | Fused::FlagD { v, threads, .. } => Some(small(*v, *threads)),
            // A staggered pair with the same v and threads has the same split, so it may share
            // the pair's counters (forms are timed one after another, never at once).
            Fused::Pair { v, threads } | Fused::Stag { v, threads } => Some(COUNTER_SLOTS / 2 + small(*v, *threads)),
            _ => None,
        }
    }

    /// Which region of tagged slots a `Slot` form writes. Every launch of a form writes every
    /// slot of its region once, which keeps the region's tags equal; another split would not,
    /// so each form has its own.
    pub(crate) fn slot_region(&self) -> Option<usize> {
        match self {
            Fused::Slot { v, threads } => Some(small(*v, *threads)),
            // After the nine regions `small` gives the slot forms: lag 1, 2, 4.
            Fused::Ord { lag } => Some(9 + lag.trailing_zeros() as usize),
            // After them, the six `Fan` forms.
            Fused::Fan { v, threads, wide } => Some(12 + 3 * *wide as usize + if *v == 2 { 2 } else { (*threads == 256) as usize }),
            // After them, the tail forms: their ticket counters count for one tail and piece
            // count each.
            Fused::Tail { .. } => TAIL_FORMS.iter().position(|f| f == self).map(|i| 18 + i),
            // After them, the `Last` forms: their counters only work for one piece count each.
            Fused::Last { .. } => LAST_FORMS.iter().position(|f| f == self).map(|i| 18 + TAIL_FORMS.len() + i),
            // After them, the `Mom` forms.
            Fused::Mom { .. } => MOM_FORMS.iter().position(|f| f == self).map(|i| 18 + TAIL_FORMS.len() + LAST_FORMS.len() + i),
            // The last three regions.
            Fused::ClShare { pre, cgwb } => Some(SLOT_REGIONS - 3 + *pre as usize + *cgwb as usize),
            _ => None,
        }
    }

    /// A short name for the candidate variants of the benchmark (`x-<short>`).
    pub(crate) fn short(&self) -> String {
        match self {
            Fused::Warp { v } => format!("warp{v}"),
            Fused::Narrow { lanes, v, threads } => format!("narrow{lanes}-{v}x{threads}"),
            Fused::Reg { v, threads } => format!("reg{v}x{threads}"),
            Fused::Split { split } => format!("split{split}"),
            Fused::Block => "block".into(),
            Fused::Reg1 { v, threads } => format!("reg1-{v}x{threads}"),
            Fused::Pipe => "pipe".into(),
            Fused::Cluster { cs, v, threads } => format!("cl{cs}-{v}x{threads}"),
            Fused::Mix { vr, vs, threads, ld, fit } => format!("mix{}{vr}-{vs}x{threads}{}", if *fit { "f" } else { "" }, ["", "-ca", "-l2"][*ld as usize % 3]),
            Fused::Flag { v, threads, coop } => format!("flag{}-{v}x{threads}", if *coop { "" } else { "n" }),
            Fused::Pair { v, threads } => format!("pair-{v}x{threads}"),
            Fused::ClMix { vr, vs, threads } => format!("clmix{vr}-{vs}x{threads}"),
            Fused::MixP { vr, vs, threads } => format!("mixp{vr}-{vs}x{threads}"),
            Fused::Stag { v, threads } => format!("stag-{v}x{threads}"),
            Fused::FlagD { v, threads, delay } => format!("flagd{delay}-{v}x{threads}"),
            Fused::MixD { vr, vs, threads, delay } => format!("mixd{delay}-{vr}-{vs}x{threads}"),
            Fused::Slot { v, threads } => format!("slot-{v}x{threads}"),
            Fused::Mom { v, threads, exact } => format!("mom{}-{v}x{threads}", if *exact { "x" } else { "" }),
            Fused::ClShare { pre, cgwb } => format!("clshare{}16{}", if *pre { "p" } else { "" }, if *cgwb { "-cg-wb" } else { "" }),
            Fused::Ord { lag } => format!("ord{lag}"),
            Fused::Fan { v, threads, wide } => format!("fan{}-{v}x{threads}", if *wide { "w" } else { "" }),
            Fused::Capped { of, v, threads, per_sm } => format!("{}-occ{per_sm}", of.form(*v, *threads).short()),
            Fused::Tail { vr, vs, threads, tail, pv } => format!("tail{vr}-{vs}x{threads}-t{tail}p{pv}"),
            Fused::Last { vr, vs, threads, tail, pv } => format!("last{vr}-{vs}x{threads}-t{tail}p{pv}"),
            Fused::Handoff { vr, vs, threads, tail, cs } => format!("hand{vr}-{vs}x{threads}-t{tail}c{cs}"),
            Fused::Hint { of, ld, st } => {
                let (load, store) = hint_names(*ld, *st);
                let form = of.form().short();
                // The mixed forms' short names end in their load hint; the pairing replaces it.
                format!("hint-{}-{load}-{store}", form.trim_end_matches("-ca"))
            }
        }
    }

    /// The form named for this shape in a CLAIMCHECK_SOFTMAX_DISPATCH list
    /// (`RxC=<short>;RxC=<short>`), among the candidates and the rule's own forms.
    pub(crate) fn overridden(list: &str, rows: usize, cols: usize) -> Option<Fused> {
        let case = format!("{rows}x{cols}");
        let want = list.split(';').filter_map(|e| e.split_once('=')).find(|(c, _)| c.trim() == case)?.1.trim().to_string();
        let mut forms = Fused::candidates(rows, cols, "all");
        forms.extend([true, false].map(|rms| Fused::choose(rows, cols, Resident::ANY, rms)));
        forms.into_iter().find(|f| f.short() == want)
    }

    /// The issue-16 candidate forms measured beside the dispatched one when
    /// CLAIMCHECK_SOFTMAX_CANDIDATES is set (a comma list of families, as listed in the
    /// README, or `all`). Each is validated against FP64 and timed like every variant.
    pub(crate) fn candidates(rows: usize, cols: usize, families: &str) -> Vec<Fused> {
        let on = |f: &str| family_listed(families, f);
        let mut out = Vec::new();
        // The rule's warp, block and mixed forms with every pairing of load and store hints
        // (issue 16, version 15), the rule's own pairing among them as a control: at 32768
        // columns the RMS-scaled and the plain softmax each have their own form. Where the
        // rule dispatches a hinted form (version 19), the pairings are of the form it mirrors,
        // and the rule's own is the dispatched kernel itself under another variant's name.
        if on("hint") {
            let mut rule: Vec<Hinted> = [true, false].into_iter().filter_map(|rms| Hinted::of(Fused::choose(rows, cols, Resident::ANY, rms))).collect();
            rule.dedup();
            out.extend(rule.into_iter().flat_map(|of| HINT_PAIRS.map(|(ld, st)| Fused::Hint { of, ld, st })));
        }
        // The one pairing version 15 left to confirm, alone (version 16): the plain softmax's
        // rule form with L2-only loads and write-back stores, so that a series of runs fixed
        // in number judges it in a family of one, not after picking it from sixteen. Where
        // the rule already dispatches that pairing (version 19) there is nothing to time.
        let plain = Fused::choose(rows, cols, Resident::ANY, false);
        if on("cgwb")
            && !on("hint")
            && let Some(of) = Hinted::of(plain)
            && let cgwb = (Fused::Hint { of, ld: 3, st: 1 })
            && plain != cgwb
        {
            out.push(cgwb);
        }
        // The control of version 19: where the rule dispatches a hinted form, the same form
        // with the streaming loads and stores it had until then, plain and RMS-scaled alike.
        if on("cscs")
            && !on("hint")
            && let Fused::Hint { of, .. } = plain
        {
            out.push(Fused::Hint { of, ld: 0, st: 0 });
        }
        // The forms the rule dispatched before version 10 of issue 16, to be timed beside it.
        if on("prev") {
            if cols == 32768 {
                out.push(Fused::Reg { v: 8, threads: 1024 });
            } else if cols.is_multiple_of(16384) {
                // Left out with a note where its blocks do not all fit at once (`prepare`).
                out.push(Fused::Split { split: cols / 16384 });
            }
        }
        // The rule's forms with fewer blocks an SM than fit (issue 16, version 9).
        if on("occ") {
            let caps: &[(Base, usize, u32, &[u32])] = match cols {
                4096 => &[(Base::Reg, 4, 256, &[7, 6, 5, 4]), (Base::Reg1, 4, 256, &[6, 4])],
                1024 => &[(Base::Warp, 8, 256, &[3, 2])],
                512 => &[(Base::Warp, 4, 256, &[5, 4, 3])],
                _ => &[],
            };
            for &(of, v, threads, per) in caps {
                out.extend(per.iter().map(|&per_sm| Fused::Capped { of, v, threads, per_sm }));
            }
        }
        // Fewer lanes a row where the warp kernel's rows are short (issue 16, version 14); only
        // where every block's rows exist, so that no warp leaves its shuffles in part.
        if cols == 128 && on("narrow") {
            out.extend(NARROW_128.iter().filter(|f| matches!(f, Fused::Narrow { lanes, threads, .. } if rows.is_multiple_of(*threads as usize / lanes))));
        }
        match cols {
            4096 => {
                if on("reg1") {
                    out.push(Fused::Reg1 { v: 4, threads: 256 });
                    out.push(Fused::Reg1 { v: 2, threads: 512 });
                }
                if on("reg") {
                    out.push(Fused::Reg { v: 2, threads: 512 });
                }
            }
            32768 => {
                if on("reg1") {
                    out.push(Fused::Reg1 { v: 8, threads: 1024 });
                }
                if on("pipe") {
                    out.push(Fused::Pipe);
                }
                if on("cluster") {
                    out.push(Fused::Cluster { cs: 2, v: 8, threads: 512 });
                    out.push(Fused::Cluster { cs: 4, v: 4, threads: 512 });
                }
                if on("mix") {
                    for ld in 0..3 {
                        out.push(Fused::Mix { vr: 8, vs: 8, threads: 512, ld, fit: false });
                        out.push(Fused::Mix { vr: 2, vs: 6, threads: 1024, ld, fit: false });
                    }
                    out.push(Fused::Mix { vr: 10, vs: 6, threads: 512, ld: 0, fit: false });
                }
                if on("fit") {
                    for (vr, vs, threads, ld) in [(8, 8, 512, 0), (8, 8, 512, 1), (2, 6, 1024, 1)] {
                        out.push(Fused::Mix { vr, vs, threads, ld, fit: true });
                    }
                }
                if on("mixp") {
                    out.push(Fused::MixP { vr: 8, vs: 8, threads: 512 });
                    out.push(Fused::MixP { vr: 2, vs: 6, threads: 1024 });
                }
                if on("mixd") {
                    for (vr, vs, threads) in [(8, 8, 512), (2, 6, 1024)] {
                        for delay in [4000, 10000] {
                            out.push(Fused::MixD { vr, vs, threads, delay });
                        }
                    }
                }
                if on("clmix") {
                    out.push(Fused::ClMix { vr: 8, vs: 8, threads: 256 });
                    out.push(Fused::ClMix { vr: 2, vs: 6, threads: 512 });
                }
                if on("tail") {
                    out.extend(TAIL_FORMS.iter().filter(|f| matches!(f, Fused::Tail { tail, .. } if *tail < rows)));
                }
                if on("last") {
                    out.extend(LAST_FORMS.iter().filter(|f| matches!(f, Fused::Last { tail, .. } if *tail <= rows)));
                }
                if on("hand") {
                    out.extend(HANDOFF_FORMS.iter().filter(|f| matches!(f, Fused::Handoff { tail, .. } if *tail < rows)));
                }
                if on("mix3") {
                    for ld in 0..2 {
                        out.push(Fused::Mix { vr: 14, vs: 18, threads: 256, ld, fit: false });
                    }
                }
            }
            262144 => {
                if on("cluster") {
                    out.push(Fused::Cluster { cs: 16, v: 4, threads: 1024 });
                    out.push(Fused::Cluster { cs: 8, v: 8, threads: 1024 });
                    out.push(Fused::Cluster { cs: 16, v: 8, threads: 512 });
                }
                if on("flag") {
                    for (v, threads) in [(4, 1024), (4, 512), (8, 512), (4, 256), (8, 256), (2, 512)] {
                        out.push(Fused::Flag { v, threads, coop: true });
                    }
                }
                if on("flagn") {
                    for (v, threads) in [(4, 512), (8, 256), (4, 256)] {
                        out.push(Fused::Flag { v, threads, coop: false });
                    }
                }
                if on("flag") && rows.is_multiple_of(2) {
                    for (v, threads) in [(2, 1024), (4, 512), (2, 512), (2, 256)] {
                        out.push(Fused::Pair { v, threads });
                    }
                }
                if on("flagd") {
                    for (v, threads) in [(4, 512), (8, 256)] {
                        for delay in [300, 600, 1200] {
                            out.push(Fused::FlagD { v, threads, delay });
                        }
                    }
                }
                if on("slot") {
                    for (v, threads) in [(4, 512), (8, 256), (4, 256), (4, 1024)] {
                        out.push(Fused::Slot { v, threads });
                    }
                }
                // The kernel polls with a lane a row-mate.
                if on("mom") {
                    out.extend(MOM_FORMS.iter().filter(|f| f.split(cols) <= 32));
                }
                if on("ord") && rows == 8 {
                    for lag in [1, 2, 4] {
                        out.push(Fused::Ord { lag });
                    }
                }
                // The kernel's layout is compiled for 8 rows of 262144.
                if on("fan") && rows == 8 {
                    for wide in [false, true] {
                        for (v, threads) in [(1, 512), (1, 256), (2, 256)] {
                            out.push(Fused::Fan { v, threads, wide });
                        }
                    }
                }
                // The kernel's pieces are compiled for 262144 columns; the last row needs a
                // second row to share it with.
                if on("clshare") && rows >= 2 {
                    out.extend([(false, false), (true, false), (true, true)].map(|(pre, cgwb)| Fused::ClShare { pre, cgwb }));
                }
                if on("stag") && rows.is_multiple_of(2) {
                    for (v, threads) in [(4, 512), (2, 512), (2, 256), (2, 1024)] {
                        out.push(Fused::Stag { v, threads });
                    }
                }
            }
            _ => {}
        }
        out
    }

    pub(crate) fn describe(&self) -> String {
        match self {
            Fused::Warp { v } => format!("warp per row, 8 rows per 256-thread block, {} values per lane in registers", 4 * v),
            Fused::Narrow { lanes, v, threads } => {
                format!(
                    "{lanes} lanes per row, {} rows per {threads}-thread block, {} values per lane in registers, {} shuffles a reduction",
                    threads / *lanes as u32,
                    4 * v,
                    lanes.trailing_zeros()
                )
            }
            Fused::Reg { v, threads } => format!("block of {threads} threads per row, {} values per thread in registers", 4 * v),
            Fused::Split { split } => format!("row split over {split} cooperative blocks of 1024 threads, 16 values per thread, two grid syncs"),
            Fused::Block => "one block per row, row re-read from global memory".into(),
            Fused::Reg1 { v, threads } => format!("block of {threads} threads per row, {} values per thread in registers, plain softmax in one online reduction", 4 * v),
            Fused::Pipe => "persistent 1024-thread block per SM, row in registers, next row prefetched into shared memory by bulk copies".into(),
            Fused::Cluster { cs, v, threads } => {
                format!("cluster of {cs} blocks of {threads} threads per row, {} values per thread, partials through distributed shared memory", 4 * v)
            }
            Fused::Mix { vr, vs, threads, ld, fit } => format!(
                "block of {threads} threads per row, {} values per thread in registers and {} in shared memory, {} blocks per SM, {} loads, {} shared-memory carveout",
                4 * vr,
                4 * vs,
                if *threads == 256 { "three" } else { "two" },
                ["streaming", "default", "default 256-byte L2 prefetch"][*ld as usize % 3],
                if *fit { "the smallest" } else { "the largest" }
            ),
            Fused::Flag { v, threads, coop } => format!(
                "row split over {}blocks of {threads} threads, {} values per thread, row-mates meet through a per-row counter",
                if *coop { "cooperative " } else { "" },
                4 * v
            ),
            Fused::ClMix { vr, vs, threads } => {
                format!("cluster of 2 blocks of {threads} threads per row, {} values per thread in registers and {} in shared memory, four blocks per SM", 4 * vr, 4 * vs)
            }
            Fused::Pair { v, threads } => {
                format!("two rows split over cooperative blocks of {threads} threads, {} values of each per thread, one row's wait overlapping the other's work", 4 * v)
            }
            Fused::MixP { vr, vs, threads } => format!(
                "persistent blocks of {threads} threads, two per SM, {} values per thread in registers and {} in shared memory, the next row loaded as this one is stored",
                4 * vr,
                4 * vs
            ),
            Fused::MixD { vr, vs, threads, delay } => format!(
                "block of {threads} threads per row, {} values per thread in registers and {} in shared memory, two blocks per SM, default loads, the first wave's second block on each SM started {delay} SM clocks late",
                4 * vr,
                4 * vs
            ),
            Fused::FlagD { v, threads, delay } => format!(
                "row split over cooperative blocks of {threads} threads, {} values per thread, row-mates meet through a per-row counter, row r started r x {delay} SM clocks late",
                4 * v
            ),
            Fused::Stag { v, threads } => format!(
                "two rows split over cooperative blocks of {threads} threads, {} values of each per thread, the second row loaded after the first row's partials are published",
                4 * v
            ),
            Fused::Slot { v, threads } => {
                format!("row split over cooperative blocks of {threads} threads, {} values per thread, row-mates meet through partials stored with a tag in one word", 4 * v)
            }
            Fused::Mom { v, threads, exact } => format!(
                "row split over cooperative blocks of {threads} threads, {} values per thread, row-mates meet through tagged slots; the RMS-scaled softmax {}",
                4 * v,
                if *exact {
                    "sends the moments of its exponentials at the block's own scale but always meets a second time for the row's sum (the control)"
                } else {
                    "meets once, rebuilding the row's sum from the moments of each block's exponentials at its own scale, and a second time only where the series' bound exceeds 2^-22 of the sum"
                }
            ),
            Fused::ClShare { pre, cgwb } => format!(
                "cluster of 16 blocks of 1024 threads per row but the last, 16 values per thread, partials through distributed shared memory; the last row shared by every block, at most 4 values a thread, its pieces meeting through tagged slots{}, {}",
                if *pre { ", the first poll loaded before the cluster meetings" } else { "" },
                if *cgwb { "L2-only loads and write-back stores" } else { "streaming loads and stores" }
            ),
            Fused::Ord { lag } => format!(
                "cooperative blocks of 256 threads holding 4 values of every row, rows loaded in order and each stored {lag} rows later, a row's blocks meeting through the last to count"
            ),
            Fused::Capped { of, v, threads, per_sm } => format!("{}, at most {per_sm} blocks an SM (unused dynamic shared memory)", of.form(*v, *threads).describe()),
            Fused::Fan { v, threads, wide } => format!(
                "cooperative blocks of {threads} threads holding {} values of every row, each row published as it arrives and stored as soon as its meeting completes, meetings independent of one another, {}",
                4 * v,
                if *wide { "a poller warp for each group of rows" } else { "one poller warp" }
            ),
            Fused::Tail { vr, vs, threads, tail, pv } => format!(
                "block of {threads} threads per row, {} values per thread in registers and {} in shared memory, two blocks per SM, default loads; the last {tail} rows split into pieces of {} values per thread that meet through tagged slots, placed by a ticket",
                4 * vr,
                4 * vs,
                4 * pv
            ),
            Fused::Last { vr, vs, threads, tail, pv } => format!(
                "block of {threads} threads per row, {} values per thread in registers and {} in shared memory, two blocks per SM, default loads; {}",
                4 * vr,
                4 * vs,
                if *tail == 0 {
                    "no row split (the control of the forms that split their last rows into pieces that never wait)".to_string()
                } else {
                    format!("the last {tail} rows split into pieces of {} values per thread that never wait, the last piece of a row to finish writing all of it", 4 * pv)
                }
            ),
            Fused::Handoff { vr, vs, threads, tail, cs } => format!(
                "block of {threads} threads per row, {} values per thread in registers and {} in shared memory, two blocks per SM, default loads, for all rows but the last {tail}, which go to a cluster of {cs} blocks of 512 threads a row launched as a programmatic dependent",
                4 * vr,
                4 * vs
            ),
            Fused::Hint { of, ld, st } => {
                let (load, store) = hint_names(*ld, *st);
                format!("the rule's `{}` compiled with `{load}` loads and `{store}` stores (cache hints)", of.form().short())
            }
        }
    }
}

impl Base {
    /// Static shared memory of the base's kernels (the warp kernel reduces with shuffles alone).
    fn own_shared(self) -> u32 {
        if self == Base::Warp { 0 } else { REDUCTION_SHARED }
    }

    /// The most dynamic shared memory a block of the base's kernels may ask for: the 227 KB a
    /// block may have on sm_90, less the kernel's own (the driver refuses a larger limit).
    fn dynamic_limit(self) -> u32 {
        SM_SHARED - BLOCK_RESERVED_SHARED - self.own_shared()
    }

    /// The uncapped form this base launches.
    fn form(self, v: usize, threads: u32) -> Fused {
        match self {
            Base::Warp => Fused::Warp { v },
            Base::Reg => Fused::Reg { v, threads },
            Base::Reg1 => Fused::Reg1 { v, threads },
        }
    }
}

/// Index of a (v, threads) pair with v in {2, 4, 8} and threads in {256, 512, 1024}: nine a kind.
fn small(v: usize, threads: u32) -> usize {
    (v.trailing_zeros() as usize - 1) * 3 + (threads.trailing_zeros() as usize - 8)
}

/// Threads per block for the simple row kernels (four-kernel path, fused-block, rms_scale).
fn row_threads(cols: usize) -> u32 {
    if cols >= 16384 { 1024 } else { 256 }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Variant {
    FourKernel,
    FusedBlock,
    Fused,
    Cudnn,
    /// softmax-bench only: a device-to-device copy of the same bytes (cuMemcpyDtoD).
    Copy,
    /// softmax-bench only: the same copy done by a kernel on the SMs.
    CopyKernel,
    /// softmax-bench only, with `phased` (or `all`) in CLAIMCHECK_SOFTMAX_CANDIDATES: a copy in the
    /// launch shape of the split forms at 8×262144 (blocks of 512 threads, 16 values a thread)
    /// whose blocks read all their values, meet at a block barrier, then write them. Not a
    /// ceiling: it times what keeping a piece's read and write apart costs by itself, without
    /// the wait for row-mates.
    PhasedCopy,
    /// As `PhasedCopy`, at 8 rows only, in the `Fan` forms' layout: blocks of 512 threads, each
    /// thread one float4 of every row. Not a ceiling either.
    PhasedCopyRows,
    /// softmax-bench only, with `hint` (or `all`) in CLAIMCHECK_SOFTMAX_CANDIDATES: the copy
    /// kernel compiled with a pairing of load and store hints (as in `Fused::Hint`), so that a
    /// fused form that gains from a pairing can be held to the copy that gains from it too.
    CopyHint(u8, u8),
    /// softmax-bench only: the plain stable softmax, fused.
    FusedPlain,
    /// softmax-bench only: cuDNN on the plain softmax.
    CudnnPlain,
    /// softmax-bench only, with CLAIMCHECK_SOFTMAX_CANDIDATES: a candidate form of the fused
    /// kernel (plain, or RMS-scaled when the flag is set), named `x-<short>[-rms]`.
    Cand(Fused, bool),
}

impl Variant {
    /// The variant's name in the samples; the candidates' and hinted copies' are made from
    /// their forms, so they are owned rather than kept for the life of the process.
    fn name(self, bench: bool) -> Cow<'static, str> {
        Cow::Borrowed(match (self, bench) {
            (Variant::FourKernel, _) => "four-kernel",
            (Variant::FusedBlock, _) => "fused-block",
            (Variant::Fused, false) => "fused",
            (Variant::Fused, true) => "fused-rms",
            (Variant::Cudnn, _) => "cudnn-rms",
            (Variant::Copy, _) => "copy",
            (Variant::CopyKernel, _) => "copy-kernel",
            (Variant::PhasedCopy, _) => "phased-copy",
            (Variant::PhasedCopyRows, _) => "phased-copy-rows",
            (Variant::CopyHint(ld, st), _) => {
                let (load, store) = hint_names(ld, st);
                return Cow::Owned(format!("x-copy-{load}-{store}"));
            }
            (Variant::FusedPlain, _) => "fused",
            (Variant::CudnnPlain, _) => "cudnn",
            (Variant::Cand(f, rms), _) => return Cow::Owned(format!("x-{}{}", f.short(), if rms { "-rms" } else { "" })),
        })
    }

    fn rms(self) -> bool {
        match self {
            Variant::Cand(_, rms) => rms,
            _ => !self.is_copy() && !matches!(self, Variant::FusedPlain | Variant::CudnnPlain),
        }
    }

    /// A copy of the input rather than a softmax: validated bit for bit against the input.
    fn is_copy(self) -> bool {
        matches!(self, Variant::Copy | Variant::CopyKernel | Variant::PhasedCopy | Variant::PhasedCopyRows | Variant::CopyHint(..))
    }

    /// Logical bytes of one invocation: array accesses as the code makes them.
    fn logical_bytes(self, rows: usize, cols: usize) -> usize {
        let e = rows * cols * 4;
        match self {
            Variant::FourKernel => 5 * e + 36 * rows,
            Variant::FusedBlock => 4 * e,
            Variant::Fused
            | Variant::FusedPlain
            | Variant::Copy
            | Variant::CopyKernel
            | Variant::PhasedCopy
            | Variant::PhasedCopyRows
            | Variant::CopyHint(..)
            | Variant::CudnnPlain
            | Variant::Cand(..) => 2 * e,
            Variant::Cudnn => 5 * e,
        }
    }
}

struct Kernels {
    rms: CudaFunction,
    max: CudaFunction,
    sum: CudaFunction,
    norm: CudaFunction,
    scale: CudaFunction,
    block_rms: CudaFunction,
    fused_rms: CudaFunction,
    fused_plain: CudaFunction,
    copy: CudaFunction,
    phased_copy: CudaFunction,
    phased_copy_rows: CudaFunction,
    /// The hinted copies (`Variant::CopyHint`) by pairing, loaded only when they are timed.
    copy_hints: Vec<((u8, u8), CudaFunction)>,
    /// The forms `fused_rms` and `fused_plain` belong to.
    form_rms: Fused,
    form_plain: Fused,
    /// Candidate forms with their (RMS-scaled, plain) kernels.
    cands: Vec<(Fused, CudaFunction, CudaFunction)>,
    /// The `Handoff` candidates' partner kernels (RMS-scaled, plain), by form.
    partners: Vec<(Fused, CudaFunction, CudaFunction)>,
    sm_count: u32,
}

/// One set of buffers; timed invocations rotate through several.
struct Set {
    x: CudaSlice<f32>,
    y: CudaSlice<f32>,
    xs: CudaSlice<f32>,
    rms: CudaSlice<f32>,
    mx: CudaSlice<f32>,
    sum: CudaSlice<f32>,
    stats: CudaSlice<f32>,
    part: CudaSlice<f32>,
    /// Row counters of the forms whose row-mates meet through them: COUNTER_SLOTS of one a row.
    counters: CudaSlice<u32>,
    /// Tagged slots of the `Slot` forms: SLOT_REGIONS regions of three words a block.
    slots: CudaSlice<u64>,
}

struct Library {
    _dnn: Arc<Cudnn>,
    softmax: cudarc::cudnn::Softmax<f32>,
    desc: TensorDescriptor<f32>,
}

struct Shape {
    rows: usize,
    cols: usize,
    kernels: Kernels,
    cudnn: Option<Library>,
}

impl Shape {
    fn submit(&self, v: Variant, set: &mut Set, stream: &Arc<CudaStream>, with_stats: bool) -> anyhow::Result<()> {
        let (rows, cols) = (self.rows as u32, self.cols as i32);
        let eps = EPS;
        let threads = row_threads(self.cols);
        let k = &self.kernels;
        let null = 0u64;
        // SAFETY (every launch below): argument lists match the kernels' signatures in
        // kernels/softmax.cu, and every buffer holds rows × cols (or per-row) floats.
        match v {
            Variant::FourKernel => unsafe {
                stream.launch_builder(&k.rms).arg(&set.x).arg(&mut set.rms).arg(&cols).arg(&eps).launch(cfg(rows, threads, 0))?;
                stream.launch_builder(&k.max).arg(&set.x).arg(&set.rms).arg(&mut set.mx).arg(&cols).launch(cfg(rows, threads, 0))?;
                stream.launch_builder(&k.sum).arg(&set.x).arg(&set.rms).arg(&set.mx).arg(&mut set.sum).arg(&cols).launch(cfg(rows, threads, 0))?;
                stream.launch_builder(&k.norm).arg(&set.x).arg(&set.rms).arg(&set.mx).arg(&set.sum).arg(&mut set.y).arg(&cols).launch(cfg(rows, threads, 0))?;
            },
            Variant::FusedBlock => unsafe {
                let mut b = stream.launch_builder(&k.block_rms);
                b.arg(&set.x).arg(&mut set.y);
                if with_stats {
                    b.arg(&mut set.stats)
                } else {
                    b.arg(&null)
                };
                b.arg(&cols).arg(&eps).launch(cfg(rows, threads, 0))?;
            },
            Variant::Fused | Variant::FusedPlain | Variant::Cand(..) => {
                let (form, f) = match v {
                    Variant::Fused => (k.form_rms, &k.fused_rms),
                    Variant::FusedPlain => (k.form_plain, &k.fused_plain),
                    Variant::Cand(form, rms) => {
                        let c = k.cands.iter().find(|c| c.0 == form).ok_or_else(|| anyhow::anyhow!("candidate {form:?} not loaded"))?;
                        (form, if rms { &c.1 } else { &c.2 })
                    }
                    _ => unreachable!(),
                };
                // A handoff's partner takes the last rows: their addresses, read before the
                // launch builder borrows the buffers.
                let ends = match form {
                    Fused::Handoff { tail, .. } => {
                        let first = self.rows - tail;
                        let at = |ptr: sys::CUdeviceptr, per_row: usize| ptr + (first * per_row * 4) as u64;
                        let x = at(set.x.device_ptr(stream).0, self.cols);
                        let y = at(set.y.device_ptr_mut(stream).0, self.cols);
                        let stats = if with_stats { at(set.stats.device_ptr_mut(stream).0, 3) } else { 0 };
                        Some([x, y, stats])
                    }
                    _ => None,
                };
                let mut b = stream.launch_builder(f);
                b.arg(&set.x).arg(&mut set.y);
                if with_stats {
                    b.arg(&mut set.stats)
                } else {
                    b.arg(&null)
                };
                match form {
                    Fused::Warp { .. } | Fused::Capped { of: Base::Warp, .. } => unsafe {
                        let rows_i = rows as i32;
                        b.arg(&rows_i).arg(&eps).launch(cfg(rows.div_ceil(8), 256, form.dynamic_shared()))?;
                    },
                    Fused::Narrow { threads, .. } => unsafe {
                        let rows_i = rows as i32;
                        b.arg(&rows_i).arg(&eps).launch(cfg(form.blocks(self.rows, self.cols) as u32, threads, 0))?;
                    },
                    Fused::Reg { threads, .. } | Fused::Reg1 { threads, .. } | Fused::Capped { threads, .. } => unsafe {
                        b.arg(&cols).arg(&eps).launch(cfg(rows, threads, form.dynamic_shared()))?;
                    },
                    Fused::Mix { threads, .. } => unsafe {
                        b.arg(&cols).arg(&eps).launch(cfg(rows, threads, form.dynamic_shared()))?;
                    },
                    // Launched as the form it mirrors: only the kernel's cache hints differ.
                    Fused::Hint { of, .. } => unsafe {
                        let last = match of {
                            Hinted::Warp { .. } => rows as i32,
                            Hinted::Reg { .. } | Hinted::Mix { .. } => cols,
                        };
                        b.arg(&last).arg(&eps).launch(cfg(form.blocks(self.rows, self.cols) as u32, form.threads(self.cols), form.dynamic_shared()))?;
                    },
                    Fused::Handoff { threads, tail, cs, .. } => unsafe {
                        b.arg(&cols).arg(&eps).launch(cfg(rows - tail as u32, threads, form.dynamic_shared()))?;
                        let Some(ends) = &ends else { anyhow::bail!("{form:?}: no row pointers") };
                        let Some(p) = k.partners.iter().find(|c| c.0 == form) else { anyhow::bail!("{form:?}: partner not loaded") };
                        let f = if matches!(v, Variant::Cand(_, true)) { &p.1 } else { &p.2 };
                        launch_dependent(stream, f, (tail * cs) as u32, 512, ends, cols, eps)?;
                    },
                    // Not cooperative: only a split row's pieces wait, and they start in ticket order;
                    // a `Last` form's pieces never wait.
                    Fused::Tail { threads, tail, .. } | Fused::Last { threads, tail, .. } => unsafe {
                        let Some(region) = form.slot_region() else { anyhow::bail!("{form:?} has no slots") };
                        let stride = set.slots.len() / SLOT_REGIONS;
                        let mut slots = set.slots.slice_mut(region * stride..(region + 1) * stride);
                        let (rows_i, tail_i) = (rows as i32, tail as i32);
                        b.arg(&mut slots).arg(&rows_i).arg(&tail_i).arg(&eps);
                        b.launch(cfg(form.blocks(self.rows, self.cols) as u32, threads, form.dynamic_shared()))?;
                    },
                    // The cluster shape is compiled into the kernel (__cluster_dims__).
                    Fused::ClMix { threads, .. } => unsafe {
                        b.arg(&cols).arg(&eps).launch(cfg(rows * 2, threads, form.dynamic_shared()))?;
                    },
                    Fused::Flag { threads, .. } | Fused::Pair { threads, .. } | Fused::Stag { threads, .. } | Fused::FlagD { threads, .. } => unsafe {
                        let Some(slot) = form.counter_slot() else { anyhow::bail!("{form:?} has no counters") };
                        let mut counters = set.counters.slice_mut(slot * self.rows..(slot + 1) * self.rows);
                        let (rows_i, split_i) = (rows as i32, form.split(self.cols) as i32);
                        let blocks = form.blocks(self.rows, self.cols) as u32;
                        b.arg(&mut set.part).arg(&mut counters).arg(&rows_i).arg(&cols).arg(&split_i).arg(&eps);
                        // The delayed-start form takes its delay as a last argument.
                        let delay = if let Fused::FlagD { delay, .. } = form { Some(delay as i32) } else { None };
                        if let Some(delay) = &delay {
                            b.arg(delay);
                        }
                        if matches!(form, Fused::Flag { coop: false, .. }) {
                            b.launch(cfg(blocks, threads, 0))?;
                        } else {
                            b.launch_cooperative(cfg(blocks, threads, 0))?;
                        }
                    },
                    Fused::Slot { .. } | Fused::Mom { .. } | Fused::Ord { .. } | Fused::Fan { .. } => unsafe {
                        let threads = form.threads(self.cols);
                        let Some(region) = form.slot_region() else { anyhow::bail!("{form:?} has no slots") };
                        let stride = set.slots.len() / SLOT_REGIONS;
                        let mut slots = set.slots.slice_mut(region * stride..(region + 1) * stride);
                        let (rows_i, split_i) = (rows as i32, form.split(self.cols) as i32);
                        b.arg(&mut slots).arg(&rows_i).arg(&cols).arg(&split_i).arg(&eps);
                        b.launch_cooperative(cfg(form.blocks(self.rows, self.cols) as u32, threads, 0))?;
                    },
                    // Two persistent blocks an SM (the shared memory admits no more).
                    Fused::MixD { threads, delay, .. } => unsafe {
                        let (first, delay) = (k.sm_count as i32, delay as i32);
                        b.arg(&cols).arg(&eps).arg(&first).arg(&delay).launch(cfg(rows, threads, form.dynamic_shared()))?;
                    },
                    Fused::MixP { threads, .. } => unsafe {
                        let rows_i = rows as i32;
                        b.arg(&rows_i).arg(&eps).launch(cfg(rows.min(2 * k.sm_count), threads, form.dynamic_shared()))?;
                    },
                    Fused::Pipe => unsafe {
                        let rows_i = rows as i32;
                        b.arg(&rows_i).arg(&eps).launch(cfg(rows.min(k.sm_count), 1024, PIPE_SHARED))?;
                    },
                    // The cluster shape is compiled into the kernel (__cluster_dims__). Not
                    // cooperative: `prepare` found room for every cluster at once.
                    Fused::ClShare { .. } => unsafe {
                        let Some(region) = form.slot_region() else { anyhow::bail!("{form:?} has no slots") };
                        let stride = set.slots.len() / SLOT_REGIONS;
                        let mut slots = set.slots.slice_mut(region * stride..(region + 1) * stride);
                        let rows_i = rows as i32;
                        b.arg(&mut slots).arg(&rows_i).arg(&cols).arg(&eps);
                        b.launch(cfg(form.blocks(self.rows, self.cols) as u32, 1024, 0))?;
                    },
                    // The cluster shape is compiled into the kernel (__cluster_dims__).
                    Fused::Cluster { cs, threads, .. } => unsafe {
                        b.arg(&cols).arg(&eps).launch(cfg(rows * cs as u32, threads, 0))?;
                    },
                    Fused::Split { split } => unsafe {
                        let split_i = split as i32;
                        b.arg(&mut set.part).arg(&cols).arg(&split_i).arg(&eps).launch_cooperative(cfg(rows * split as u32, 1024, 0))?;
                    },
                    Fused::Block => unsafe {
                        b.arg(&cols).arg(&eps).launch(cfg(rows, threads, 0))?;
                    },
                }
            }
            Variant::Cudnn | Variant::CudnnPlain => {
                let lib = self.cudnn.as_ref().ok_or_else(|| anyhow::anyhow!("cuDNN is not available"))?;
                let op = SoftmaxForward { softmax: &lib.softmax, x: &lib.desc, y: &lib.desc };
                let algo = dnn::cudnnSoftmaxAlgorithm_t::CUDNN_SOFTMAX_ACCURATE;
                if v == Variant::Cudnn {
                    unsafe {
                        stream.launch_builder(&k.scale).arg(&set.x).arg(&mut set.xs).arg(&cols).arg(&eps).launch(cfg(rows, threads, 0))?;
                        op.launch((1.0f32, 0.0f32), algo, &set.xs, &mut set.y)?;
                    }
                } else {
                    unsafe { op.launch((1.0f32, 0.0f32), algo, &set.x, &mut set.y)? };
                }
            }
            Variant::Copy => stream.memcpy_dtod(&set.x, &mut set.y)?,
            // SAFETY: x and y hold rows × cols floats, a multiple of 4.
            Variant::CopyKernel | Variant::CopyHint(..) => unsafe {
                let f = match v {
                    Variant::CopyHint(ld, st) => &k.copy_hints.iter().find(|c| c.0 == (ld, st)).ok_or_else(|| anyhow::anyhow!("hinted copy {ld}, {st} not loaded"))?.1,
                    _ => &k.copy,
                };
                let n4 = (self.rows * self.cols / 4) as i64;
                stream.launch_builder(f).arg(&set.x).arg(&mut set.y).arg(&n4).launch(cfg((n4 as u32).div_ceil(256), 256, 0))?;
            },
            // SAFETY: x and y hold rows × cols floats, a multiple of 8192 at every shape of the
            // benchmark (one block of 512 threads a 8192 floats).
            Variant::PhasedCopy => unsafe {
                let blocks = (self.rows * self.cols / 8192) as u32;
                stream.launch_builder(&k.phased_copy).arg(&set.x).arg(&mut set.y).launch(cfg(blocks, 512, 0))?;
            },
            // SAFETY: 8 rows (the only shape it is timed at) of a multiple of 2048 columns: one
            // block of 512 threads for each 2048 columns, reading and writing those of every row.
            Variant::PhasedCopyRows => unsafe {
                let c4 = (self.cols / 4) as i64;
                stream.launch_builder(&k.phased_copy_rows).arg(&set.x).arg(&mut set.y).arg(&c4).launch(cfg((self.cols / 2048) as u32, 512, 0))?;
            },
        }
        Ok(())
    }
}

/// Whether CLAIMCHECK_SOFTMAX_CANDIDATES names `family` (or `all`).
fn candidate_family_on(family: &str) -> bool {
    std::env::var("CLAIMCHECK_SOFTMAX_CANDIDATES").is_ok_and(|f| family_listed(&f, family))
}

/// Whether a comma list of candidate families names `family`, or `all`.
fn family_listed(families: &str, family: &str) -> bool {
    families.split(',').any(|x| x.trim() == family || x.trim() == "all")
}

/// Launches a `Handoff` form's partner, a cluster kernel (x, y, stats, cols, eps) over the
/// rows at `ends` ([x, y, stats] addresses of the first of them, stats 0 for none), as a
/// programmatic dependent of the kernel before it in `stream`: it may start once every block
/// of that kernel has started, instead of once that kernel has ended.
///
/// # Safety
/// `f` must be a cluster kernel of kernels/softmax.cu, and `ends` must address `grid / cs`
/// rows of `cols` floats (and three statistics each) inside live buffers.
unsafe fn launch_dependent(stream: &Arc<CudaStream>, f: &CudaFunction, grid: u32, threads: u32, ends: &[sys::CUdeviceptr; 3], cols: i32, eps: f32) -> anyhow::Result<()> {
    // SAFETY: a zeroed launch attribute is a valid value of the C union; id and value are set
    // next.
    let mut attr: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
    attr.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attr.value.programmaticStreamSerializationAllowed = 1;
    let config = sys::CUlaunchConfig {
        gridDimX: grid,
        gridDimY: 1,
        gridDimZ: 1,
        blockDimX: threads,
        blockDimY: 1,
        blockDimZ: 1,
        sharedMemBytes: 0,
        hStream: stream.cu_stream(),
        attrs: &mut attr,
        numAttrs: 1,
    };
    let (mut x, mut y, mut stats, mut cols, mut eps) = (ends[0], ends[1], ends[2], cols, eps);
    let mut params: [*mut std::ffi::c_void; 5] = [
        (&mut x as *mut sys::CUdeviceptr).cast(),
        (&mut y as *mut sys::CUdeviceptr).cast(),
        (&mut stats as *mut sys::CUdeviceptr).cast(),
        (&mut cols as *mut i32).cast(),
        (&mut eps as *mut f32).cast(),
    ];
    // SAFETY: the parameters match the kernel's signature (the caller's contract), and each
    // points at a value that lives until the call returns, which is when the driver has
    // copied them.
    unsafe { sys::cuLaunchKernelEx(&config, f.cu_function(), params.as_mut_ptr(), std::ptr::null_mut()) }.result()?;
    Ok(())
}

/// Fills `buf` with NaN on the device, so that an element the kernel does not write fails.
fn poison(stream: &Arc<CudaStream>, buf: &mut CudaSlice<f32>) -> anyhow::Result<()> {
    let n = buf.len();
    let (ptr, _guard) = buf.device_ptr_mut(stream);
    // SAFETY: `ptr` addresses `n` floats of `buf`; 0x7fc00000 is a quiet NaN.
    unsafe { sys::cuMemsetD32Async(ptr, 0x7fc0_0000, n, stream.cu_stream()) }.result()?;
    Ok(())
}

/// One set of buffers; `slot_words` is the size of each of the SLOT_REGIONS regions of tagged
/// slots (the most any form timed at the shape writes).
fn alloc_set(stream: &Arc<CudaStream>, rows: usize, cols: usize, split: usize, slot_words: usize) -> anyhow::Result<Set> {
    let n = rows * cols;
    Ok(Set {
        x: stream.alloc_zeros(n)?,
        y: stream.alloc_zeros(n)?,
        xs: stream.alloc_zeros(n)?,
        rms: stream.alloc_zeros(rows)?,
        mx: stream.alloc_zeros(rows)?,
        sum: stream.alloc_zeros(rows)?,
        stats: stream.alloc_zeros(3 * rows)?,
        // Two rounds of a pair per block (the split kernel uses three floats a block).
        part: stream.alloc_zeros(4 * rows * split.max(1))?,
        counters: stream.alloc_zeros(COUNTER_SLOTS * rows)?,
        // Zero tags (and tickets) to start: the first launch of each form writes tag 1.
        slots: stream.alloc_zeros(SLOT_REGIONS * slot_words.max(1))?,
    })
}

/// Runs the softmax suite (`bench == false`) or the softmax-bench suite over every shape.
pub(crate) fn run(gpu: &Gpu, settings: &Settings, out: &mut Collected, bench: bool, mut progress: impl FnMut(&str)) -> anyhow::Result<()> {
    let module = gpu.module("softmax", super::KERNELS[1].1)?;
    out.ptx.insert("softmax".into(), module.ptx.clone());
    out.nvrtc_options.insert("softmax".into(), module.options.clone());
    let suite = if bench { "softmax-bench" } else { "softmax" };
    let resident = resident_blocks(gpu, &module)?;
    let variants: Vec<Variant> = if bench {
        vec![Variant::Copy, Variant::CopyKernel, Variant::FusedPlain, Variant::CudnnPlain, Variant::Fused]
    } else {
        vec![Variant::FourKernel, Variant::FusedBlock, Variant::Fused, Variant::Cudnn]
    };
    // Both suites time every entry on a stream and as a graph replay, so that each peer of the
    // benchmark (timed by graph replay with events, `benches/torch_softmax.py`) has an entry of
    // ours timed by the same protocol to be ordered against.
    let modes: &[&str] = &["stream", "graph"];
    for (rows, cols) in SHAPES {
        let case = format!("{rows}x{cols}");
        progress(&format!("{suite} {case}"));
        let (mut form_rms, mut form_plain) = (Fused::choose(rows, cols, resident, true), Fused::choose(rows, cols, resident, false));
        if let Ok(over) = std::env::var("CLAIMCHECK_SOFTMAX_DISPATCH")
            && let Some(form) = Fused::overridden(&over, rows, cols)
        {
            out.notes.push(format!(
                "{suite} {case}: dispatch set by CLAIMCHECK_SOFTMAX_DISPATCH to {} (the rule's choice: {} and {})",
                form.short(),
                form_rms.kernel(true),
                form_plain.kernel(false)
            ));
            (form_rms, form_plain) = (form, form);
        }
        let dispatched = |form| prepare(gpu, &module, form, rows, cols)?.map_err(|why| anyhow::anyhow!("{suite} {case}: the dispatched form cannot run: {why}"));
        let (fused_rms, _) = dispatched(form_rms)?;
        let (_, fused_plain) = dispatched(form_plain)?;
        let mut cands = Vec::new();
        let mut partners = Vec::new();
        if bench && let Ok(families) = std::env::var("CLAIMCHECK_SOFTMAX_CANDIDATES") {
            // A form's kernels, or why they cannot run here (a driver error or a form that
            // does not fit), as one message for the run's notes.
            let load = |form: Fused| prepare(gpu, &module, form, rows, cols).map_err(|e| e.to_string()).and_then(|ready| ready);
            for form in Fused::candidates(rows, cols, &families) {
                let loaded = load(form).and_then(|(r, p)| match form.partner() {
                    Some(other) => load(other).map(|pair| (r, p, Some(pair))).map_err(|why| format!("its partner {}: {why}", other.short())),
                    None => Ok((r, p, None)),
                });
                match loaded {
                    Ok((r, p, partner)) => {
                        cands.push((form, r, p));
                        partners.extend(partner.map(|(pr, pp)| (form, pr, pp)));
                    }
                    Err(why) => out.notes.push(format!("{suite} {case}: candidate {} not run: {why}", form.short())),
                }
            }
        }
        // `copies` times the hinted copies alone: the cache-hint twin of the copy kernel
        // (`x-copy-cs-cs`, the same instructions) shows whether the rotation still favours one
        // of two equal kernels (version 16).
        let hinted_copies = bench && (candidate_family_on("hint") || candidate_family_on("copies"));
        let kernels = Kernels {
            rms: module.function("sm_rms")?,
            max: module.function("sm_max")?,
            sum: module.function("sm_sum")?,
            norm: module.function("sm_norm")?,
            scale: module.function("rms_scale")?,
            block_rms: module.function("fused_block_rms")?,
            fused_rms,
            fused_plain,
            copy: module.function("copy_f4")?,
            phased_copy: module.function("copy_phased_4_512")?,
            phased_copy_rows: module.function("copy_phased_rows_8")?,
            copy_hints: if hinted_copies {
                HINT_PAIRS.iter().map(|&(ld, st)| Ok(((ld, st), module.function(&format!("copy_hint_{ld}_{st}"))?))).collect::<anyhow::Result<_>>()?
            } else {
                Vec::new()
            },
            form_rms,
            form_plain,
            cands,
            partners,
            sm_count: gpu.info.sm_count as u32,
        };
        let cudnn = if super::device::cudnn_present() {
            let dnn = Cudnn::new(gpu.stream.clone())?;
            let softmax = dnn.create_softmax::<f32>(dnn::cudnnSoftmaxMode_t::CUDNN_SOFTMAX_MODE_INSTANCE)?;
            let desc = dnn.create_4d_tensor::<f32>(dnn::cudnnTensorFormat_t::CUDNN_TENSOR_NCHW, [rows as i32, cols as i32, 1, 1])?;
            Some(Library { _dnn: dnn, softmax, desc })
        } else {
            out.notes.push(format!("{suite} {case}: cuDNN not found; the cuDNN variants did not run"));
            None
        };
        let shape = Shape { rows, cols, kernels, cudnn };
        let mut active: Vec<Variant> = variants.iter().copied().filter(|v| shape.cudnn.is_some() || !matches!(v, Variant::Cudnn | Variant::CudnnPlain)).collect();
        if bench && candidate_family_on("phased") {
            active.push(Variant::PhasedCopy);
            if rows == 8 && cols.is_multiple_of(2048) {
                active.push(Variant::PhasedCopyRows);
            }
        }
        active.extend(shape.kernels.copy_hints.iter().map(|((ld, st), _)| Variant::CopyHint(*ld, *st)));
        for (form, _, _) in &shape.kernels.cands {
            active.push(Variant::Cand(*form, false));
            active.push(Variant::Cand(*form, true));
        }
        record_kernels(gpu, out, &shape, &module.name)?;

        let split = shape.kernels.cands.iter().map(|c| c.0.split(cols)).chain([form_rms.split(cols), form_plain.split(cols)]).max().unwrap_or(1);
        let n = rows * cols;
        let bytes_per_set = 3 * n * 4;
        let sets_n = rotation_sets(bytes_per_set, gpu.info.l2_bytes as usize);
        let slot_words = shape.kernels.cands.iter().map(|c| c.0).chain([form_rms, form_plain]).map(|f| f.slot_words(rows, cols)).max().unwrap_or(0);
        let mut sets = (0..sets_n).map(|_| alloc_set(&gpu.stream, rows, cols, split, slot_words)).collect::<anyhow::Result<Vec<_>>>()?;

        // Validation in stream mode on fresh fixtures, outputs and statistics poisoned first.
        for k in 0..settings.validation_fixtures {
            let seed = fixture_seed(settings.seed, suite, &case, k);
            let x = random_input(n, seed);
            gpu.stream.memcpy_htod(&x, &mut sets[0].x)?;
            let reference_rms = reference::row_softmax(&x, rows, cols, EPS as f64, true);
            let reference_plain = if bench { Some(reference::row_softmax(&x, rows, cols, EPS as f64, false)) } else { None };
            for &v in &active {
                let set = &mut sets[0];
                poison(&gpu.stream, &mut set.y)?;
                poison(&gpu.stream, &mut set.stats)?;
                poison(&gpu.stream, &mut set.rms)?;
                poison(&gpu.stream, &mut set.mx)?;
                poison(&gpu.stream, &mut set.sum)?;
                gpu.run_once(|s| shape.submit(v, set, s, true))?;
                let y = gpu.stream.clone_dtoh(&set.y)?;
                let name = v.name(bench);
                let c = |what| Compared { suite, case: &case, variant: &name, what, fixture: seed, tolerance: TOLERANCE, criterion: Criterion::MaxRel };
                if v.is_copy() {
                    out.validation.push(reference::compare_bits(&c("y"), &y, &x));
                    continue;
                }
                let reference = if v.rms() { &reference_rms } else { reference_plain.as_ref().unwrap_or(&reference_rms) };
                out.validation.push(reference::compare(&c("y"), &y, &reference.y));
                let stats: Option<(Vec<f32>, Vec<f32>, Vec<f32>)> = match v {
                    Variant::FourKernel => Some((gpu.stream.clone_dtoh(&set.rms)?, gpu.stream.clone_dtoh(&set.mx)?, gpu.stream.clone_dtoh(&set.sum)?)),
                    Variant::FusedBlock | Variant::Fused | Variant::FusedPlain | Variant::Cand(..) => {
                        let st = gpu.stream.clone_dtoh(&set.stats)?;
                        Some((st.iter().step_by(3).copied().collect(), st.iter().skip(1).step_by(3).copied().collect(), st.iter().skip(2).step_by(3).copied().collect()))
                    }
                    _ => None,
                };
                if let Some((rms_got, max_got, sum_got)) = stats {
                    if v.rms() {
                        out.validation.push(reference::compare(&c("rms"), &rms_got, &reference.rms));
                    }
                    out.validation.push(reference::compare(&c("row_max"), &max_got, &reference.max));
                    out.validation.push(reference::compare(&c("row_sum"), &sum_got, &reference.sum));
                }
            }
        }

        // Graphs: one per variant and buffer set, same kernels and pointers as the stream mode.
        let mut graphs: BTreeMap<(Variant, usize), CudaGraph> = BTreeMap::new();
        let mut graph_variants = Vec::new();
        if modes.contains(&"graph") {
            for &v in &active {
                let mut ok = true;
                for (i, set) in sets.iter_mut().enumerate() {
                    match gpu.capture(|s| shape.submit(v, set, s, false)) {
                        Ok((g, setup_us)) => {
                            if i == 0 {
                                out.graphs.push(GraphRecord {
                                    suite: suite.into(),
                                    case: case.clone(),
                                    variant: v.name(bench).into(),
                                    nodes: super::device::graph_nodes(&g)?,
                                    setup_us,
                                    dot: super::device::graph_dot(&g)?,
                                });
                            }
                            graphs.insert((v, i), g);
                        }
                        Err(e) => {
                            out.notes.push(format!("{suite} {case} {}: graph capture failed ({e}); graph mode not run", v.name(bench)));
                            ok = false;
                            break;
                        }
                    }
                }
                if ok {
                    graph_variants.push(v);
                }
            }
            // Graph replay validated on one more fresh fixture.
            let seed = fixture_seed(settings.seed, suite, &case, settings.validation_fixtures);
            let x = random_input(n, seed);
            gpu.stream.memcpy_htod(&x, &mut sets[0].x)?;
            let reference_rms = reference::row_softmax(&x, rows, cols, EPS as f64, true);
            let reference_plain = if bench { Some(reference::row_softmax(&x, rows, cols, EPS as f64, false)) } else { None };
            for &v in &graph_variants {
                poison(&gpu.stream, &mut sets[0].y)?;
                graphs[&(v, 0)].launch()?;
                gpu.stream.synchronize()?;
                let y = gpu.stream.clone_dtoh(&sets[0].y)?;
                let name = v.name(bench);
                let c = Compared { suite, case: &case, variant: &name, what: "y-graph", fixture: seed, tolerance: TOLERANCE, criterion: Criterion::MaxRel };
                if v.is_copy() {
                    out.validation.push(reference::compare_bits(&c, &y, &x));
                    continue;
                }
                let reference = if v.rms() { &reference_rms } else { reference_plain.as_ref().unwrap_or(&reference_rms) };
                out.validation.push(reference::compare(&c, &y, &reference.y));
            }
        }

        // The timing fixture: one fixed input per set.
        let timing_seed = fixture_seed(settings.seed, suite, &case, 1000);
        for (i, set) in sets.iter_mut().enumerate() {
            let x = random_input(n, timing_seed + i as u64);
            gpu.stream.memcpy_htod(&x, &mut set.x)?;
        }
        gpu.stream.synchronize()?;
        let mut entries = Vec::new();
        for &v in &active {
            entries.push((v, "stream"));
            if graph_variants.contains(&v) {
                entries.push((v, "graph"));
            }
        }
        let mut timed = Rotation::new(gpu, &mut sets, &graphs, entries, |v| v.name(bench).to_string(), |v, set, s| shape.submit(v, set, s, false));
        let protocol = harness::Protocol { warmup: settings.warmup, rounds: settings.rounds, seed: timing_seed };
        let (samples, clocks) = harness::measure(&mut timed, suite, &case, protocol, &mut gpu.clock(), || {})?;
        out.samples.extend(samples);
        out.cases.push(CaseMeta {
            suite: suite.into(),
            case: case.clone(),
            shape: vec![rows, cols],
            rotation_sets: sets_n,
            rotation: Some(SetRotation::PerInvocation),
            bytes_per_set,
            timing_fixture_seed: timing_seed,
            variants: active.iter().map(|v| v.name(bench).to_string()).collect(),
            modes: modes.iter().map(|m| m.to_string()).collect(),
            logical_bytes: active.iter().map(|v| (v.name(bench).to_string(), v.logical_bytes(rows, cols))).collect(),
            dispatch: Some(dispatch_note(form_rms, form_plain, bench)),
            clocks,
        });
    }
    Ok(())
}

/// How many blocks of the rule's cooperative forms fit on the device at once: the fewer of the
/// two kernels (RMS-scaled and plain) of each, since both must launch.
fn resident_blocks(gpu: &Gpu, module: &super::device::Module) -> anyhow::Result<Resident> {
    let fits = |form: Fused, threads: u32| -> anyhow::Result<usize> {
        let mut least = usize::MAX;
        for rms in [true, false] {
            let f = module.function(&form.kernel(rms))?;
            least = least.min(f.occupancy_max_active_blocks_per_multiprocessor(threads, 0, None)? as usize);
        }
        Ok(least * gpu.info.sm_count as usize)
    };
    Ok(Resident { slot: fits(RULE_SLOT, RULE_SLOT.threads(0))?, split: fits(Fused::Split { split: 1 }, 1024)? })
}

/// The run's record of what `fused` (and, in the benchmark, its plain softmax) dispatched.
fn dispatch_note(rms: Fused, plain: Fused, bench: bool) -> String {
    let mut note = format!("{}: {}", rms.kernel(true), rms.describe());
    if bench {
        note.push_str(&format!("; {}: {}", plain.kernel(false), plain.describe()));
    }
    note
}

/// Loads a form's (RMS-scaled, plain) kernels and readies them for launch: the dynamic
/// shared-memory limit of `Pipe`, the non-portable cluster size of 16-block clusters. The inner
/// `Err` says why the form cannot run on this device (a cluster that does not fit).
fn prepare(gpu: &Gpu, module: &super::device::Module, form: Fused, rows: usize, cols: usize) -> anyhow::Result<Result<(CudaFunction, CudaFunction), String>> {
    let r = module.function(&form.kernel(true))?;
    let p = module.function(&form.kernel(false))?;
    for f in [&r, &p] {
        match form {
            Fused::Pipe
            | Fused::Mix { .. }
            | Fused::ClMix { .. }
            | Fused::MixP { .. }
            | Fused::MixD { .. }
            | Fused::Tail { .. }
            | Fused::Last { .. }
            | Fused::Handoff { .. }
            | Fused::Hint { of: Hinted::Mix { .. }, .. } => {
                f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, form.dynamic_shared() as i32)?;
                // Two blocks of the mixed form must find their shared memory on one SM.
                f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, form.carveout())?;
                if let Fused::Mix { fit: true, .. } = form {
                    let fits = f.occupancy_max_active_blocks_per_multiprocessor(form.threads(cols), form.dynamic_shared() as usize, None)?;
                    if fits < form.mix_per_sm() {
                        return Ok(Err(format!("{fits} blocks an SM fit with a carveout of {} %, not {}", form.carveout(), form.mix_per_sm())));
                    }
                }
            }
            Fused::Flag { .. }
            | Fused::Pair { .. }
            | Fused::Stag { .. }
            | Fused::FlagD { .. }
            | Fused::Slot { .. }
            | Fused::Mom { .. }
            | Fused::Ord { .. }
            | Fused::Fan { .. }
            | Fused::Split { .. } => {
                // A cooperative launch must have every block resident at once.
                let threads = form.threads(cols);
                let per_sm = f.occupancy_max_active_blocks_per_multiprocessor(threads, 0, None)? as usize;
                let blocks = form.blocks(rows, cols);
                if blocks > per_sm * gpu.info.sm_count as usize {
                    return Ok(Err(format!("{blocks} blocks do not fit at once ({per_sm} a SM)")));
                }
            }
            Fused::Capped { of, per_sm, .. } => {
                // Every cap shares one kernel, so its limit is the most any cap asks for.
                f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, of.dynamic_limit() as i32)?;
                f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100)?;
                // "At most": registers may allow fewer (the run's kernels.json records how many
                // fit), but never more, or the name would not say what was timed.
                let fits = f.occupancy_max_active_blocks_per_multiprocessor(form.threads(cols), form.dynamic_shared() as usize, None)?;
                if fits > per_sm {
                    return Ok(Err(format!("{fits} blocks an SM fit, more than {per_sm}")));
                }
            }
            // The shared row's meeting spans the grid: every cluster must be resident at once.
            Fused::ClShare { .. } => {
                f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)?;
                let need = form.blocks(rows, cols) / CLSHARE_SIZE;
                // The polling warp reads four words a lane of each meeting.
                if form.blocks(rows, cols) > 128 {
                    return Ok(Err(format!("{} blocks share the last row, more than the 128 its poll covers", form.blocks(rows, cols))));
                }
                match f.occupancy_max_active_clusters(cfg(form.blocks(rows, cols) as u32, 1024, 0), &gpu.stream) {
                    Ok(n) if n as usize >= need && need > 0 => {}
                    Ok(n) => return Ok(Err(format!("{need} clusters of {CLSHARE_SIZE} blocks of 1024 threads must be resident at once, and {n} are"))),
                    Err(e) => return Ok(Err(format!("cluster occupancy query failed: {e}"))),
                }
            }
            Fused::Cluster { cs, threads, .. } => {
                if cs > 8 {
                    f.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)?;
                }
                let fits = f.occupancy_max_active_clusters(cfg((rows * cs) as u32, threads, 0), &gpu.stream);
                match fits {
                    Ok(0) => return Ok(Err(format!("no cluster of {cs} blocks of {threads} threads fits"))),
                    Ok(n) => eprintln!("{}: at most {n} clusters of {cs} blocks of {threads} threads active at once ({rows} rows)", form.kernel(std::ptr::eq(f, &r))),
                    Err(e) => return Ok(Err(format!("cluster occupancy query failed: {e}"))),
                }
            }
            _ => {}
        }
    }
    Ok(Ok((r, p)))
}

fn record_kernels(gpu: &Gpu, out: &mut Collected, shape: &Shape, module: &str) -> anyhow::Result<()> {
    let k = &shape.kernels;
    let t = row_threads(shape.cols);
    let list: [(&str, &CudaFunction, u32); 8] = [
        ("sm_rms", &k.rms, t),
        ("sm_max", &k.max, t),
        ("sm_sum", &k.sum, t),
        ("sm_norm", &k.norm, t),
        ("rms_scale", &k.scale, t),
        ("fused_block_rms", &k.block_rms, t),
        ("fused-rms", &k.fused_rms, k.form_rms.threads(shape.cols)),
        ("fused-plain", &k.fused_plain, k.form_plain.threads(shape.cols)),
    ];
    for (name, f, threads) in list {
        let (kernel, shared) = match name {
            "fused-rms" => (k.form_rms.kernel(true), k.form_rms.dynamic_shared()),
            "fused-plain" => (k.form_plain.kernel(false), k.form_plain.dynamic_shared()),
            other => (other.to_string(), 0),
        };
        if out.kernels.iter().any(|i| i.kernel == kernel && i.block_threads == threads) {
            continue;
        }
        out.kernels.push(gpu.kernel_info(module, &kernel, f, threads, shared)?);
    }
    let partners = k.partners.iter().filter_map(|(form, r, p)| Some((form.partner()?, r, p)));
    for (form, r, p) in k.cands.iter().map(|(form, r, p)| (*form, r, p)).chain(partners) {
        for (rms, f) in [(true, r), (false, p)] {
            let kernel = form.kernel(rms);
            let threads = form.threads(shape.cols);
            if out.kernels.iter().any(|i| i.kernel == kernel && i.block_threads == threads) {
                continue;
            }
            out.kernels.push(gpu.kernel_info(module, &kernel, f, threads, form.dynamic_shared())?);
        }
    }
    Ok(())
}

/// The timed configuration: each entry rotates through the buffer sets.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch_follows_the_documented_rule() {
        let h200 = Resident::H200;
        for rms in [true, false] {
            assert_eq!(Fused::choose(4096, 128, h200, rms), Fused::Warp { v: 1 });
            assert_eq!(Fused::choose(16384, 512, h200, rms), Fused::Warp { v: 4 });
            assert_eq!(Fused::choose(32768, 1024, h200, rms), Fused::Hint { of: Hinted::Warp { v: 8 }, ld: 3, st: 1 });
            assert_eq!(Fused::choose(4096, 4096, h200, rms), Fused::Hint { of: Hinted::Reg { v: 4, threads: 256 }, ld: 3, st: 1 });
            assert_eq!(Fused::choose(4096, 8192, h200, rms), Fused::Reg { v: 4, threads: 512 });
            // 32 blocks of 512 threads a row, 256 in all: two an SM on 128 of the 132 SMs.
            assert_eq!(Fused::choose(8, 262144, h200, rms), Fused::Slot { v: 4, threads: 512 });
            // 12 × 16 = 192 slot blocks fit; 20 × 16 = 320 do not, and then the split form's
            // 20 × 8 = 160 blocks of 1024 threads do where 200 fit, and not on the H200.
            assert_eq!(Fused::choose(12, 131072, h200, rms), Fused::Slot { v: 4, threads: 512 });
            assert_eq!(Fused::choose(20, 131072, h200, rms), Fused::Block);
            assert_eq!(Fused::choose(20, 131072, Resident { slot: 264, split: 200 }, rms), Fused::Split { split: 8 });
            assert_eq!(Fused::choose(64, 262144, h200, rms), Fused::Block);
            assert_eq!(Fused::choose(10, 1000, h200, rms), Fused::Block);
        }
        assert_eq!(Fused::choose(1024, 32768, h200, true), Fused::Mix { vr: 2, vs: 6, threads: 1024, ld: 1, fit: false });
        assert_eq!(Fused::choose(1024, 32768, h200, false), Fused::Mix { vr: 8, vs: 8, threads: 512, ld: 1, fit: false });
    }

    #[test]
    fn every_dispatched_kernel_exists_in_the_source() {
        let source = super::super::KERNELS[1].1;
        for (rows, cols) in SHAPES {
            for rms in [true, false] {
                let form = Fused::choose(rows, cols, Resident::H200, rms);
                let name = form.kernel(rms);
                assert!(source.contains(&format!("{name}(")) || source.contains(&macro_form(&name)), "{name} is not defined in kernels/softmax.cu");
                // Every dispatched form is one the benchmark can also time as a candidate, so
                // that CLAIMCHECK_SOFTMAX_DISPATCH and the candidate list name it alike.
                assert_eq!(Fused::overridden(&format!("{rows}x{cols}={}", form.short()), rows, cols), Some(form));
            }
        }
    }

    /// Kernels made by WARP_KERNEL(V) / REG_KERNEL(V, T) / REG1_KERNEL(V, T) /
    /// CLUSTER_KERNEL(CS, V, T, MINB) appear as their macro invocation.
    fn macro_form(name: &str) -> String {
        let parts: Vec<&str> = name.split('_').collect();
        match parts.as_slice() {
            ["fused", "warp", _, v] => format!("WARP_KERNEL({v})"),
            ["fused", "narrow", _, l, v, t] => format!("NARROW_KERNEL({l}, {v}, {t})"),
            ["fused", "reg", _, v, t] => format!("REG_KERNEL({v}, {t})"),
            ["fused", "reg1", _, v, t] => format!("REG1_KERNEL({v}, {t})"),
            ["fused", "cl", _, cs, v, t] => format!("CLUSTER_KERNEL({cs}, {v}, {t},"),
            ["fused", "mix", _, vr, vs, t, ld] => format!("MIX_KERNEL({vr}, {vs}, {t}, {}, {ld})", if *t == "256" { 3 } else { 2 }),
            ["fused", "mixf", _, vr, vs, t, ld] => format!("MIX_KERNELS(fused_mixf, {vr}, {vs}, {t}, {}, {ld})", if *t == "256" { 3 } else { 2 }),
            ["fused", "slot", _, v, t] => format!("SLOT_KERNEL({v}, {t},"),
            ["fused", "mom" | "momx", _, v, t] => format!("MOM_KERNEL({v}, {t},"),
            ["fused", "ord", _, lag] => format!("ORD_KERNEL({lag})"),
            ["fused", "cap", "warp", _, v] => format!("WARP_KERNELS(fused_cap_warp, {v})"),
            ["fused", "cap", "reg", _, v, t] => format!("REG_KERNELS(fused_cap_reg, {v}, {t})"),
            ["fused", "cap", "reg1", _, v, t] => format!("REG1_KERNELS(fused_cap_reg1, {v}, {t})"),
            // The wide form has a poller warp for each group of 512 / B rows: 1024 / (v t) of them.
            ["fused", fan @ ("fan" | "fanw"), _, v, t] => {
                let pollers = if *fan == "fan" { 1 } else { 1024 / (v.parse::<usize>().unwrap_or(1) * t.parse::<usize>().unwrap_or(1)) };
                format!("FAN_KERNEL({fan}, {pollers}, {v}, {t},")
            }
            ["fused", "flag", _, v, t] => format!("FLAG_KERNEL({v}, {t},"),
            ["fused", "pair", _, v, t] => format!("PAIR_KERNEL({v}, {t},"),
            ["fused", "stag", _, v, t] => format!("STAG_KERNEL({v}, {t},"),
            ["fused", "flagd", _, v, t] => format!("FLAGD_KERNEL({v}, {t},"),
            ["fused", "mixp", _, vr, vs, t] => format!("MIXP_KERNEL({vr}, {vs}, {t},"),
            ["fused", "mixd", _, vr, vs, t] => format!("MIXD_KERNEL({vr}, {vs}, {t},"),
            ["fused", "clmix", _, vr, vs, t] => format!("CLMIX_KERNEL({vr}, {vs}, {t},"),
            ["fused", "tail", _, vr, vs, t, pv] => format!("TAIL_KERNEL({vr}, {vs}, {t}, 2, {pv})"),
            ["fused", "last", _, vr, vs, t, pv] => format!("LAST_KERNEL({vr}, {vs}, {t}, 2, {pv})"),
            ["fused", "mixh", _, vr, vs, t] => format!("MIXH_KERNEL({vr}, {vs}, {t},"),
            // Every pairing of HINT_PAIRS is made for each form (`hint_pairs_match_the_source`).
            ["fused", "hint", _, "warp", v, _, _] => format!("HINT_PAIRS(HINT_WARP, {v})"),
            ["fused", "hint", _, "reg", v, t, _, _] => format!("HINT_PAIRS(HINT_REG, {v}, {t})"),
            ["fused", "hint", _, "mix", vr, vs, t, _, _] => format!("HINT_PAIRS(HINT_MIX, {vr}, {vs}, {t})"),
            _ => name.to_string(),
        }
    }

    #[test]
    fn every_candidate_kernel_exists_in_the_source() {
        let source = super::super::KERNELS[1].1;
        for (rows, cols) in SHAPES {
            for form in Fused::candidates(rows, cols, "all") {
                assert_eq!(covered(form, cols), cols, "{form:?} does not cover {cols} columns");
                for rms in [true, false] {
                    let name = form.kernel(rms);
                    assert!(source.contains(&format!("{name}(")) || source.contains(&macro_form(&name)), "{name} is not defined in kernels/softmax.cu");
                }
            }
        }
    }

    /// Columns a row's blocks cover: a warp per row covers 128 v columns, a hinted form as
    /// many as the form it mirrors; every other form's blocks cover the row.
    fn covered(form: Fused, cols: usize) -> usize {
        match form {
            Fused::Warp { v } | Fused::Capped { of: Base::Warp, v, .. } => 128 * v,
            Fused::Narrow { lanes, v, .. } => 4 * lanes * v,
            Fused::Hint { of, .. } => covered(of.form(), cols),
            _ => form.threads(cols) as usize * 4 * form_values(form) * cluster(form, cols),
        }
    }

    /// The pairings the source makes for every hinted form and copy are the ones the tool
    /// times, so that no `Hint` form or hinted copy names a kernel that is not there.
    #[test]
    fn hint_pairs_match_the_source() {
        let source = super::super::KERNELS[1].1;
        let line = source.lines().skip_while(|l| !l.starts_with("#define HINT_PAIRS(M, ...)")).nth(1).expect("HINT_PAIRS is defined");
        let pairs: Vec<(u8, u8)> = line
            .split("M(__VA_ARGS__, ")
            .skip(1)
            .map(|p| {
                let (ld, st) = p.split_once(')').expect("a closed pairing").0.split_once(", ").expect("two hints");
                (ld.trim().parse().expect("a load hint"), st.trim().parse().expect("a store hint"))
            })
            .collect();
        assert_eq!(pairs, HINT_PAIRS);
        assert!(source.contains("HINT_PAIRS(COPY_HINT_PAIR, 0)"));
        // Every rule form a hinted one can mirror is made with every pairing.
        for (rows, cols) in SHAPES {
            let forms = Fused::candidates(rows, cols, "hint");
            let rule: Vec<Fused> = [true, false].map(|rms| Fused::choose(rows, cols, Resident::H200, rms)).into_iter().filter(|f| Hinted::of(*f).is_some()).collect();
            assert_eq!(
                forms.len(),
                if rule.is_empty() {
                    0
                } else if rule[0] == rule[1] {
                    8
                } else {
                    16
                },
                "{rows}x{cols}: {forms:?}"
            );
            for form in rule {
                let of = Hinted::of(form).expect("a hinted form");
                // The rule's form is the one a hinted form mirrors, or one of them itself.
                assert!(of.form() == form || matches!(form, Fused::Hint { of: o, .. } if o == of), "the hinted form launches as the rule's");
                assert!(forms.contains(&Fused::Hint { of, ld: 1, st: 0 }) && forms.contains(&Fused::Hint { of, ld: 0, st: 0 }));
            }
        }
    }

    #[test]
    fn the_confirmation_family_is_the_plain_rule_form_with_l2_loads_and_write_back_stores() {
        let at = |rows, cols, families| Fused::candidates(rows, cols, families).iter().map(Fused::short).collect::<Vec<_>>();
        assert_eq!(at(1024, 32768, "cgwb"), vec!["hint-mix8-8x512-cg-wb"]);
        assert_eq!(at(4096, 128, "cgwb"), vec!["hint-warp1-cg-wb"]);
        // Where the rule dispatches the pairing itself, the family has nothing to time, and
        // the control family times the streaming pairing the rule had before version 19.
        assert!(at(32768, 1024, "cgwb").is_empty() && at(4096, 4096, "cgwb").is_empty());
        assert_eq!(at(32768, 1024, "cscs"), vec!["hint-warp8-cs-cs"]);
        assert_eq!(at(4096, 4096, "cscs"), vec!["hint-reg4x256-cs-cs"]);
        assert!(at(1024, 32768, "cscs").is_empty() && at(16384, 512, "cscs").is_empty());
        // At 8 rows the rule's form has no hinted twin, and `hint` already holds the pairing.
        assert!(at(8, 262144, "cgwb").is_empty());
        assert_eq!(at(1024, 32768, "hint,cgwb"), at(1024, 32768, "hint"));
    }

    fn form_values(f: Fused) -> usize {
        match f {
            Fused::Reg { v, .. }
            | Fused::Reg1 { v, .. }
            | Fused::Cluster { v, .. }
            | Fused::Flag { v, .. }
            | Fused::Pair { v, .. }
            | Fused::Stag { v, .. }
            | Fused::FlagD { v, .. }
            | Fused::Slot { v, .. }
            | Fused::Mom { v, .. } => v,
            Fused::ClShare { .. } => 4,
            Fused::Mix { vr, vs, .. }
            | Fused::ClMix { vr, vs, .. }
            | Fused::MixP { vr, vs, .. }
            | Fused::MixD { vr, vs, .. }
            | Fused::Tail { vr, vs, .. }
            | Fused::Last { vr, vs, .. }
            | Fused::Handoff { vr, vs, .. } => vr + vs,
            Fused::Pipe => 8,
            // 16 values a thread of 1024.
            Fused::Split { .. } => 4,
            // A float4 of each row a thread.
            Fused::Ord { .. } => 1,
            Fused::Fan { v, .. } | Fused::Capped { v, .. } => v,
            _ => 0,
        }
    }

    /// Blocks per row: a cluster's size, or the cooperative split.
    fn cluster(f: Fused, cols: usize) -> usize {
        match f {
            Fused::Cluster { cs, .. } => cs,
            Fused::ClMix { .. } => 2,
            Fused::ClShare { .. } => CLSHARE_SIZE,
            _ => f.split(cols),
        }
    }

    #[test]
    fn every_counting_form_counts_on_its_own_slot() {
        let mut seen = std::collections::BTreeMap::new();
        for form in Fused::candidates(8, 262144, "flag,stag,flagd") {
            let slot = form.counter_slot().expect("a counting form");
            assert!(slot < COUNTER_SLOTS, "{form:?}: slot {slot}");
            // Forms may share only with a form of the same kernel family and split (a staggered
            // pair with its pair, a delayed start with the counting form it delays).
            if let Some(other) = seen.insert(slot, form) {
                assert_eq!(other.split(262144), form.split(262144), "{form:?} shares slot {slot} with {other:?}");
                let same_kernel_family = matches!((other, form), (Fused::Pair { .. }, Fused::Stag { .. }) | (Fused::Flag { .. } | Fused::FlagD { .. }, Fused::FlagD { .. }));
                assert!(same_kernel_family, "{form:?} shares slot {slot} with {other:?}");
            }
        }
        assert!(seen.len() >= 2);
    }

    #[test]
    fn mixed_forms_fit_on_an_sm_as_often_as_planned() {
        // The H200 gives an SM 228 KB of shared memory, of which the driver reserves 1 KB a
        // block; the static part is the 64-float reduction buffer.
        for form in Fused::candidates(1024, 32768, "mix,mix3,clmix,mixp,mixd,fit") {
            let per_block = form.dynamic_shared() + 1024 + 256;
            let per_sm = match form {
                Fused::ClMix { .. } => 4,
                Fused::Mix { threads: 256, .. } => 3,
                _ => 2,
            };
            assert!(per_sm * per_block <= 228 * 1024, "{form:?} takes {per_block} bytes a block");
            // The carveout asked for holds the blocks, and a `fit` form asks for less than all.
            assert!(per_sm * per_block <= form.carveout() as u32 * (228 * 1024 / 100) || form.carveout() == 100, "{form:?}: carveout {}", form.carveout());
            if let Fused::Mix { fit: true, .. } = form {
                assert!(form.carveout() < 100, "{form:?}");
            }
        }
    }

    #[test]
    fn every_slot_form_writes_its_own_region() {
        let mut seen = std::collections::BTreeMap::new();
        for form in Fused::candidates(8, 262144, "slot,ord,fan") {
            let region = form.slot_region().expect("a slot form");
            assert!(region < SLOT_REGIONS, "{form:?}: region {region}");
            assert!(seen.insert(region, form).is_none(), "{form:?} shares region {region}");
        }
        assert_eq!(seen.len(), 13);
        assert_eq!(Fused::Ord { lag: 2 }.blocks(8, 262144), 256);
        // A `Fan` block holds a piece of every row, and its region's two words a block and row
        // fit in the three the allocation gives.
        assert_eq!(Fused::Fan { v: 1, threads: 512, wide: false }.blocks(8, 262144), 128);
        assert_eq!(Fused::Fan { v: 1, threads: 256, wide: true }.blocks(8, 262144), 256);
        assert_eq!(Fused::overridden("8x262144=fanw-2x256", 8, 262144), Some(Fused::Fan { v: 2, threads: 256, wide: true }));
        assert!(Fused::candidates(64, 262144, "fan").is_empty());
        assert_eq!(Fused::overridden("8x262144=slot-4x512", 8, 262144), Some(Fused::Slot { v: 4, threads: 512 }));
    }

    #[test]
    fn the_one_meeting_forms_poll_a_lane_a_row_mate_in_regions_of_their_own() {
        assert_eq!(Fused::candidates(8, 262144, "mom"), MOM_FORMS.to_vec());
        // Only where the polling warp has a lane for every row-mate (split <= 32).
        assert!(Fused::candidates(8, 524288, "mom").is_empty() && Fused::candidates(1024, 32768, "mom").is_empty());
        let others: Vec<usize> =
            Fused::candidates(8, 262144, "all").into_iter().chain(TAIL_FORMS).chain(LAST_FORMS).filter(|f| !MOM_FORMS.contains(f)).filter_map(|f| f.slot_region()).collect();
        let mut mine = Vec::new();
        for form in MOM_FORMS {
            assert_eq!(form.split(262144), 32);
            assert_eq!(form.blocks(8, 262144), 256);
            // Nine kinds of word at the one meeting and the fallback's one, a block each.
            assert_eq!(form.slot_words(8, 262144), 10 * 8 * 32);
            let region = form.slot_region().expect("the form meets through slots");
            assert!(region < SLOT_REGIONS && !others.contains(&region) && !mine.contains(&region), "{form:?}: region {region} is shared");
            mine.push(region);
            assert_eq!(Fused::overridden(&format!("8x262144={}", form.short()), 8, 262144), Some(form));
        }
        assert_eq!(MOM_FORMS.map(|f| f.kernel(true)), ["fused_mom_rms_4_512", "fused_momx_rms_4_512", "fused_mom_rms_8_256"]);
        assert_eq!(MOM_FORMS.map(|f| f.short()), ["mom-4x512", "momx-4x512", "mom-8x256"]);
    }

    #[test]
    fn the_shared_row_forms_have_regions_of_their_own_sized_for_their_grid() {
        let forms = [Fused::ClShare { pre: false, cgwb: false }, Fused::ClShare { pre: true, cgwb: false }, Fused::ClShare { pre: true, cgwb: true }];
        assert_eq!(Fused::candidates(8, 262144, "clshare"), forms.to_vec());
        assert!(Fused::candidates(1, 262144, "clshare").is_empty() && Fused::candidates(1024, 32768, "clshare").is_empty());
        let others: Vec<usize> =
            Fused::candidates(8, 262144, "all").into_iter().chain(TAIL_FORMS).chain(LAST_FORMS).filter(|f| !forms.contains(f)).filter_map(|f| f.slot_region()).collect();
        for form in forms {
            // Seven clusters of 16 for rows 0-6, and every one of their blocks holds a piece of
            // row 7: a float4 a thread at most, so no piece outgrows a block of 1024 threads,
            // and the polling warp's four words a lane cover every block.
            assert_eq!(form.blocks(8, 262144), 112);
            assert!((262144 / 4usize).div_ceil(112) <= 1024 && 112 <= 4 * 32);
            assert_eq!(form.slot_words(8, 262144), 3 * 112);
            let region = form.slot_region().expect("the form meets through slots");
            assert!(region < SLOT_REGIONS && !others.contains(&region), "{form:?}: region {region} is shared");
            assert_eq!(Fused::overridden(&format!("8x262144={}", form.short()), 8, 262144), Some(form));
        }
        let regions: std::collections::BTreeSet<_> = forms.iter().map(|f| f.slot_region()).collect();
        assert_eq!(regions.len(), 3);
    }

    #[test]
    fn a_tail_form_splits_its_last_rows_into_whole_pieces_in_its_own_region() {
        let forms = Fused::candidates(1024, 32768, "tail");
        assert_eq!(forms, TAIL_FORMS.to_vec());
        let mut regions = std::collections::BTreeSet::new();
        for form in forms {
            let Fused::Tail { threads, tail, pv, .. } = form else { panic!("{form:?} is not a tail form") };
            let pieces = form.pieces(32768);
            assert_eq!(pieces * 4 * pv * threads as usize, 32768, "{form:?}");
            // A row's pieces wait for one another, so they must fit on the device at once, and
            // each is polled by one lane of the waiting warp.
            assert!((2..=8).contains(&pieces), "{form:?}: {pieces} pieces");
            assert_eq!(form.blocks(1024, 32768), 1024 - tail + tail * pieces);
            let region = form.slot_region().expect("a tail form has slots");
            assert!((18..SLOT_REGIONS).contains(&region) && regions.insert(region), "{form:?}: region {region}");
            // The ticket word and three words a piece fit in a region of three words a block
            // of a row and five a row.
            assert!(3 * tail * pieces < 8 * 1024, "{form:?}");
            assert_eq!(Fused::overridden(&format!("1024x32768={}", form.short()), 1024, 32768), Some(form));
        }
        // A shape with no more rows than a form splits gets none of that form.
        assert_eq!(Fused::candidates(100, 32768, "tail").len(), 4);
        // The regions are sized by what each form writes, not by blocks a row: at 100 rows, 64
        // rows in eight pieces need 1 + 3 · 512 words, more than 3 · 100 + 5 · 100.
        let eighths = Fused::Tail { vr: 8, vs: 8, threads: 512, tail: 64, pv: 2 };
        assert_eq!(eighths.slot_words(100, 32768), 1537);
        assert_eq!(Fused::Mix { vr: 8, vs: 8, threads: 512, ld: 1, fit: false }.slot_words(100, 32768), 0);
        assert_eq!(RULE_SLOT.slot_words(8, 262144), 3 * 8 * 32 + 5 * 8);
        assert!(Fused::candidates(4096, 4096, "tail").is_empty());
    }

    #[test]
    fn a_last_form_splits_its_last_rows_into_pieces_with_a_counter_and_a_partial_each() {
        let forms = Fused::candidates(1024, 32768, "last");
        assert_eq!(forms, LAST_FORMS.to_vec());
        let mut regions = std::collections::BTreeSet::new();
        for form in forms {
            let Fused::Last { vr, vs, threads, tail, pv } = form else { panic!("{form:?} is not a last form") };
            let pieces = form.pieces(32768);
            assert_eq!(pieces * 4 * pv * threads as usize, 32768, "{form:?}");
            assert_eq!(4 * (vr + vs) * threads as usize, 32768, "{form:?}");
            // The counter tells the last piece by its remainder, which survives the counter's
            // wrap only for a power of two.
            assert!(pieces.is_power_of_two() && pieces > 1, "{form:?}: {pieces} pieces");
            assert_eq!(form.blocks(1024, 32768), 1024 - tail + tail * pieces);
            assert_eq!(form.slot_words(1024, 32768), tail * (1 + pieces));
            let region = form.slot_region().expect("a last form has slots");
            assert!((18 + TAIL_FORMS.len()..SLOT_REGIONS).contains(&region) && regions.insert(region), "{form:?}: region {region}");
            assert_eq!(form.dynamic_shared(), 16 * vs as u32 * threads, "{form:?}");
            assert_eq!(Fused::overridden(&format!("1024x32768={}", form.short()), 1024, 32768), Some(form));
        }
        // A form may split every row, never more rows than the shape has.
        assert_eq!(Fused::candidates(132, 32768, "last").len(), 6);
        assert!(Fused::candidates(4096, 4096, "last").is_empty());
    }

    #[test]
    fn a_narrow_form_covers_its_rows_with_whole_warps_of_whole_groups() {
        let forms = Fused::candidates(4096, 128, "narrow");
        assert_eq!(forms, NARROW_128.to_vec());
        for form in forms {
            let Fused::Narrow { lanes, v, threads } = form else { panic!("{form:?} is not a narrow form") };
            assert_eq!(4 * lanes * v, 128, "{form:?}");
            // A group never straddles a warp, and a block holds whole warps and whole rows.
            assert!(lanes.is_power_of_two() && lanes < 32 && threads % 32 == 0, "{form:?}");
            assert_eq!(form.blocks(4096, 128) * threads as usize, 4096 * lanes, "{form:?}");
            assert_eq!(Fused::overridden(&format!("4096x128={}", form.short()), 4096, 128), Some(form));
        }
        // Not offered where the last block's rows would not all exist (a warp would leave its
        // shuffles in part), nor at another width.
        assert!(Fused::candidates(4100, 128, "narrow").is_empty());
        assert!(Fused::candidates(16384, 512, "narrow").is_empty());
    }

    #[test]
    fn a_handoff_gives_its_last_rows_whole_to_a_cluster_kernel_that_exists() {
        let source = super::super::KERNELS[1].1;
        let forms = Fused::candidates(1024, 32768, "hand");
        assert_eq!(forms, HANDOFF_FORMS.to_vec());
        for form in forms {
            let Fused::Handoff { tail, cs, .. } = form else { panic!("{form:?} is not a handoff") };
            assert_eq!(form.blocks(1024, 32768), 1024 - tail);
            let Some(partner @ Fused::Cluster { cs: pcs, v, threads }) = form.partner() else { panic!("{form:?} has no cluster partner") };
            // The partner's clusters cover a row, and `submit` launches them with 512 threads.
            assert_eq!((pcs, threads, pcs * v * 4 * threads as usize), (cs, 512, 32768), "{form:?}");
            for rms in [true, false] {
                let name = partner.kernel(rms);
                assert!(source.contains(&macro_form(&name)), "{name} is not defined in kernels/softmax.cu");
            }
            assert_eq!(Fused::overridden(&format!("1024x32768={}", form.short()), 1024, 32768), Some(form));
        }
        assert!(Fused::Mix { vr: 8, vs: 8, threads: 512, ld: 1, fit: false }.partner().is_none());
    }

    #[test]
    fn a_cap_leaves_room_for_its_blocks_and_not_one_more() {
        for (rows, cols) in SHAPES {
            for form in Fused::candidates(rows, cols, "occ") {
                let Fused::Capped { of, per_sm, .. } = form else { panic!("{form:?} is not capped") };
                let block = form.dynamic_shared() + of.own_shared() + BLOCK_RESERVED_SHARED;
                assert!(form.dynamic_shared() <= of.dynamic_limit(), "{form:?} asks for more than its limit");
                assert!(per_sm * block <= SM_SHARED && (per_sm + 1) * block > SM_SHARED, "{form:?}: {block} bytes a block");
                assert!(form.kernel(false).starts_with("fused_cap_"), "{form:?} launches the rule's own kernel");
            }
        }
        assert_eq!(Fused::overridden("4096x4096=reg4x256-occ6", 4096, 4096), Some(Fused::Capped { of: Base::Reg, v: 4, threads: 256, per_sm: 6 }));
        assert_eq!(Fused::Capped { of: Base::Warp, v: 8, threads: 256, per_sm: 3 }.blocks(32768, 1024), 4096);
    }

    #[test]
    fn the_dispatch_override_names_candidates_and_rule_forms() {
        let list = "1024x32768=pipe; 8x262144=cl16-4x1024;4096x4096=reg1-4x256";
        // The forms of the rule before version 10, and both of its forms now.
        assert_eq!(Fused::overridden("1024x32768=reg8x1024", 1024, 32768), Some(Fused::Reg { v: 8, threads: 1024 }));
        assert_eq!(Fused::overridden("1024x32768=mix2-6x1024-ca", 1024, 32768), Some(Fused::Mix { vr: 2, vs: 6, threads: 1024, ld: 1, fit: false }));
        assert_eq!(Fused::overridden("1024x32768=mix8-8x512-ca", 1024, 32768), Some(Fused::Mix { vr: 8, vs: 8, threads: 512, ld: 1, fit: false }));
        assert_eq!(Fused::overridden(list, 1024, 32768), Some(Fused::Pipe));
        assert_eq!(Fused::overridden(list, 8, 262144), Some(Fused::Cluster { cs: 16, v: 4, threads: 1024 }));
        assert_eq!(Fused::overridden(list, 4096, 4096), Some(Fused::Reg1 { v: 4, threads: 256 }));
        assert_eq!(Fused::overridden("8x262144=split16", 8, 262144), Some(Fused::Split { split: 16 }));
        assert_eq!(Fused::overridden(list, 4096, 128), None);
        assert_eq!(Fused::overridden("1024x32768=nonsense", 1024, 32768), None);
    }

    #[test]
    fn logical_bytes_count_array_accesses() {
        assert_eq!(Variant::Fused.logical_bytes(4096, 4096), 8 * 4096 * 4096);
        assert_eq!(Variant::FourKernel.logical_bytes(1, 4), 5 * 16 + 36);
    }
}
