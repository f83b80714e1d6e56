//! The kernels of the quadrant count ([`super`]): placing table entries in a quadrant, joining
//! North and South pieces, bucketing signatures by their sieve bits, transposing a block into
//! chunk tables and scanning the short list against them. Each has a plain version and, on
//! x86-64, versions for the instruction sets the CPU has (AVX-512, AVX2, BMI2), chosen at run
//! time; the tests check that they agree.

use super::{BLOCK, CHUNK, Geometry, Placed, Quad, Window};

/// Places the table entries `group` in quadrant `q` into `out` (replacing it): join keys,
/// signatures and, if `diagonals`, the board diagonals.
pub(super) fn place(
    g: Geometry,
    win: Window,
    q: Quad,
    group: &[u64],
    out: &mut Placed,
    diagonals: bool,
) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("gfni") {
        // SAFETY: the CPU has the features the function was compiled for.
        unsafe { place_avx512(g, win, q, group, out, diagonals) };
        return;
    }
    place_plain(g, win, q, group, out, diagonals);
}

fn place_plain(
    g: Geometry,
    win: Window,
    q: Quad,
    group: &[u64],
    out: &mut Placed,
    diagonals: bool,
) {
    out.key.clear();
    out.sig.clear();
    out.s.clear();
    out.d.clear();
    for &e in group {
        let p = g.place(q, e);
        out.key.push(win.key(&p));
        out.sig.push(p.sig);
        if diagonals {
            out.s.push(p.s);
            out.d.push(p.d);
        }
    }
}

/// [`place`] eight entries at a time: the bit reversals of the flipped quadrants are a GFNI
/// affine map (bits within bytes) and a byte shuffle.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,gfni")]
fn place_avx512(
    g: Geometry,
    win: Window,
    q: Quad,
    group: &[u64],
    out: &mut Placed,
    diagonals: bool,
) {
    use std::arch::x86_64::*;
    let len = group.len();
    for v in [&mut out.key, &mut out.sig, &mut out.s, &mut out.d] {
        v.clear();
        v.reserve(len + 8);
    }
    let (n, h) = (g.n as u64, g.h as u64);
    let cnt = |c: u64| _mm512_set1_epi64(c as i64);
    let lo32 = cnt(0xffff_ffff);
    let rev_bits = cnt(0x8040_2010_0804_0201);
    let rev_bytes_idx: [u8; 64] = std::array::from_fn(|i| ((i / 8) * 8 + 7 - i % 8) as u8);
    // SAFETY: 64 bytes.
    let rev_bytes = unsafe { _mm512_loadu_si512(rev_bytes_idx.as_ptr().cast()) };
    let rev_shift = cnt(65 - 2 * n);
    let rev = |x: __m512i| {
        let b = _mm512_gf2p8affine_epi64_epi8(x, rev_bits, 0);
        _mm512_srlv_epi64(_mm512_shuffle_epi8(b, rev_bytes), rev_shift)
    };
    let (sh_h, sh_nh, sh_n1) = (cnt(h), cnt(n - h), cnt(n - 1));
    let m = cnt((1u64 << (n - 1)) - 1);
    let (wls, wms, wld, wmd) = (
        cnt(win.ls.into()),
        cnt(win.ms),
        cnt(win.ld.into()),
        cnt(win.md),
    );
    let c32 = cnt(32);
    let dst = [
        out.key.as_mut_ptr(),
        out.sig.as_mut_ptr(),
        out.s.as_mut_ptr(),
        out.d.as_mut_ptr(),
    ];
    let cap = [&out.key, &out.sig, &out.s, &out.d].map(|v| v.capacity());
    let mut i = 0;
    while i < len {
        let mask: __mmask8 = if len - i >= 8 {
            0xff
        } else {
            (1u16 << (len - i)) as u8 - 1
        };
        let lanes = mask.count_ones() as usize;
        debug_assert!(i + lanes <= len && cap.iter().all(|&c| i + lanes <= c));
        // SAFETY: masked loads within `group` (lanes i..i + lanes, i + lanes <= len), masked
        // stores within the capacity reserved (len + 8 for each column).
        unsafe {
            let e = _mm512_maskz_loadu_epi64(mask, group.as_ptr().add(i).cast());
            let ls = _mm512_and_si512(e, lo32);
            let ld = _mm512_srli_epi64::<32>(e);
            let lsh = _mm512_sllv_epi64(ls, sh_h);
            let (ps, pd) = match q {
                Quad::NorthEast => (lsh, ld),
                Quad::SouthEast => (rev(ld), rev(lsh)),
                Quad::NorthWest => (ld, lsh),
                Quad::SouthWest => (rev(lsh), rev(ld)),
            };
            let sig = _mm512_or_si512(
                _mm512_and_si512(_mm512_srlv_epi64(ps, sh_h), m),
                _mm512_sllv_epi64(_mm512_and_si512(_mm512_srlv_epi64(pd, sh_nh), m), sh_n1),
            );
            let key = _mm512_or_si512(
                _mm512_and_si512(_mm512_srlv_epi64(ps, wls), wms),
                _mm512_sllv_epi64(_mm512_and_si512(_mm512_srlv_epi64(pd, wld), wmd), c32),
            );
            _mm512_mask_storeu_epi64(dst[0].add(i).cast(), mask, key);
            _mm512_mask_storeu_epi64(dst[1].add(i).cast(), mask, sig);
            if diagonals {
                _mm512_mask_storeu_epi64(dst[2].add(i).cast(), mask, ps);
                _mm512_mask_storeu_epi64(dst[3].add(i).cast(), mask, pd);
            }
        }
        i += 8;
    }
    debug_assert!(cap.iter().all(|&c| len <= c));
    // SAFETY: the first `len` values were written (the diagonals only if asked for).
    unsafe {
        out.key.set_len(len);
        out.sig.set_len(len);
        if diagonals {
            out.s.set_len(len);
            out.d.set_len(len);
        }
    }
}

/// Appends the signature of every compatible pair of a North piece of `a` and a South piece
/// of `b`.
pub(super) fn join_pieces(a: &Placed, b: &Placed, out: &mut Vec<u64>) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has the features the function was compiled for.
        unsafe { join_avx512(a, b, out) };
        return;
    }
    join_plain(a, b, out);
}

fn join_plain(a: &Placed, b: &Placed, out: &mut Vec<u64>) {
    for (&xk, &xs) in a.key.iter().zip(&a.sig) {
        // Branch-free: write every pair, keep those that fit.
        out.reserve(b.key.len());
        let mut len = out.len();
        let cap = out.capacity();
        let base = out.as_mut_ptr();
        for (&k, &y) in b.key.iter().zip(&b.sig) {
            debug_assert!(len < cap);
            // SAFETY: at most b.key.len() values are written past the old length, within the
            // capacity reserved above.
            unsafe { base.add(len).write(xs | y) };
            len += usize::from(xk & k == 0);
        }
        debug_assert!(len <= cap);
        // SAFETY: the first `len` values are initialised.
        unsafe { out.set_len(len) };
    }
}

/// [`join_pieces`] with AVX-512: eight South pieces tested per instruction, the signatures
/// of the compatible ones compressed to the front of a register and stored at the end of
/// `out` (a full 8-lane store: the capacity keeps 8 slots of room).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn join_avx512(a: &Placed, b: &Placed, out: &mut Vec<u64>) {
    use std::arch::x86_64::*;
    let (keys, sigs) = (&b.key, &b.sig);
    let m = keys.len();
    assert_eq!(m, sigs.len());
    out.reserve(a.key.len() * m + 8);
    let mut len = out.len();
    let cap = out.capacity();
    let base = out.as_mut_ptr();
    let tail = m % 8;
    let full = m - tail;
    let tail_mask: __mmask8 = (1u16 << tail) as u8 - 1;
    for (&xk, &xs) in a.key.iter().zip(&a.sig) {
        let vk = _mm512_set1_epi64(xk as i64);
        let vs = _mm512_set1_epi64(xs as i64);
        let mut i = 0;
        // SAFETY: loads of 8 values at i < full (in bounds), masked loads past it; each
        // store writes 8 slots from len <= old length + pairs so far, within the capacity.
        unsafe {
            while i < full {
                debug_assert!(i + 8 <= m && len + 8 <= cap);
                let k = _mm512_loadu_si512(keys.as_ptr().add(i).cast());
                let ok = _mm512_testn_epi64_mask(k, vk);
                let y = _mm512_or_si512(_mm512_loadu_si512(sigs.as_ptr().add(i).cast()), vs);
                _mm512_storeu_si512(base.add(len).cast(), _mm512_maskz_compress_epi64(ok, y));
                len += ok.count_ones() as usize;
                i += 8;
            }
            if tail != 0 {
                debug_assert!(i + tail == m && len + 8 <= cap);
                let k = _mm512_maskz_loadu_epi64(tail_mask, keys.as_ptr().add(i).cast());
                let ok = _mm512_mask_testn_epi64_mask(tail_mask, k, vk);
                let y = _mm512_or_si512(
                    _mm512_maskz_loadu_epi64(tail_mask, sigs.as_ptr().add(i).cast()),
                    vs,
                );
                _mm512_storeu_si512(base.add(len).cast(), _mm512_maskz_compress_epi64(ok, y));
                len += ok.count_ones() as usize;
            }
        }
    }
    debug_assert!(len <= cap);
    // SAFETY: the first `len` values are initialised.
    unsafe { out.set_len(len) };
}

/// Sorts `src` into buckets by the bits `key` (gathered to the low bits), keeping of each
/// signature only the bits `rest` (gathered to the low bits): bucket `u` is
/// `out[start[u]..start[u + 1]]`.
pub(super) fn bucket(src: &[u64], key: u64, rest: u64, out: &mut Vec<u64>, start: &mut Vec<usize>) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2.
        unsafe { bucket_bmi2(src, key, rest, out, start) };
        return;
    }
    bucket_with(src, key, rest, out, start, pext_plain);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn bucket_bmi2(src: &[u64], key: u64, rest: u64, out: &mut Vec<u64>, start: &mut Vec<usize>) {
    use std::arch::x86_64::_pext_u64;
    bucket_with(src, key, rest, out, start, |x, m| _pext_u64(x, m));
}

#[inline(always)]
fn bucket_with(
    src: &[u64],
    key: u64,
    rest: u64,
    out: &mut Vec<u64>,
    start: &mut Vec<usize>,
    pext: impl Fn(u64, u64) -> u64,
) {
    let buckets = 1usize << key.count_ones();
    start.clear();
    start.resize(buckets + 1, 0);
    for &x in src {
        start[pext(x, key) as usize + 1] += 1;
    }
    for u in 0..buckets {
        start[u + 1] += start[u];
    }
    out.clear();
    out.resize(src.len(), 0);
    // Fill with a cursor per bucket (start[u] moves to the bucket's end, then back).
    for &x in src {
        let u = pext(x, key) as usize;
        out[start[u]] = pext(x, rest);
        start[u] += 1;
    }
    for u in (1..=buckets).rev() {
        start[u] = start[u - 1];
    }
    start[0] = 0;
}

/// The sieve key (the bits `key`, gathered; at most 8 of them) of each signature of `src`,
/// and how many signatures have each key.
pub(super) fn long_keys(src: &[u64], key: u64, keys: &mut Vec<u8>, hist: &mut Vec<u32>) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2.
        unsafe { long_keys_bmi2(src, key, keys, hist) };
        return;
    }
    long_keys_with(src, key, keys, hist, pext_plain);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn long_keys_bmi2(src: &[u64], key: u64, keys: &mut Vec<u8>, hist: &mut Vec<u32>) {
    use std::arch::x86_64::_pext_u64;
    long_keys_with(src, key, keys, hist, |x, m| _pext_u64(x, m));
}

#[inline(always)]
fn long_keys_with(
    src: &[u64],
    key: u64,
    keys: &mut Vec<u8>,
    hist: &mut Vec<u32>,
    pext: impl Fn(u64, u64) -> u64,
) {
    debug_assert!(key.count_ones() <= 8);
    hist.clear();
    hist.resize(256, 0);
    keys.clear();
    keys.extend(src.iter().map(|&x| pext(x, key) as u8));
    for &u in keys.iter() {
        hist[u as usize] += 1;
    }
}

/// Sorts the long list into the trie's leaves (`leaf_of[sieve key]`, the keys from
/// [`long_keys`]), keeping of each signature its bits `rest` (gathered to the low bits) and
/// its sieve key in the top byte: leaf `i` is `out[start[i]..start[i + 1]]`.
pub(super) fn bucket_long(
    src: &[u64],
    keys: &[u8],
    rest: u64,
    leaf_of: &[u32],
    leaves: usize,
    out: &mut Vec<u64>,
    start: &mut Vec<usize>,
) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2.
        unsafe { bucket_long_bmi2(src, keys, rest, leaf_of, leaves, out, start) };
        return;
    }
    bucket_long_with(src, keys, rest, leaf_of, leaves, out, start, pext_plain);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn bucket_long_bmi2(
    src: &[u64],
    keys: &[u8],
    rest: u64,
    leaf_of: &[u32],
    leaves: usize,
    out: &mut Vec<u64>,
    start: &mut Vec<usize>,
) {
    use std::arch::x86_64::_pext_u64;
    bucket_long_with(src, keys, rest, leaf_of, leaves, out, start, |x, m| {
        _pext_u64(x, m)
    });
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn bucket_long_with(
    src: &[u64],
    keys: &[u8],
    rest: u64,
    leaf_of: &[u32],
    leaves: usize,
    out: &mut Vec<u64>,
    start: &mut Vec<usize>,
    pext: impl Fn(u64, u64) -> u64,
) {
    assert_eq!(src.len(), keys.len());
    // Leaves by key (a key's leaf as a byte index into `start`).
    let mut leaf = [0u32; 256];
    for (u, l) in leaf.iter_mut().enumerate().take(leaf_of.len()) {
        *l = leaf_of[u];
    }
    start.clear();
    start.resize(leaves + 1, 0);
    let mut per_key = [0usize; 256];
    for &u in keys {
        per_key[u as usize] += 1;
    }
    for (u, &c) in per_key.iter().enumerate().take(leaf_of.len()) {
        start[leaf[u] as usize + 1] += c;
    }
    for i in 0..leaves {
        start[i + 1] += start[i];
    }
    // A cursor per key: keys of one leaf follow each other in key order.
    let mut cursor = [0usize; 256];
    let mut at = start.clone();
    for u in 0..leaf_of.len() {
        let l = leaf[u] as usize;
        cursor[u] = at[l];
        at[l] += per_key[u];
    }
    out.clear();
    out.reserve(src.len());
    debug_assert!(out.capacity() >= src.len());
    let base = out.as_mut_ptr();
    for (&x, &u) in src.iter().zip(keys) {
        let c = &mut cursor[u as usize];
        debug_assert!(*c < src.len());
        // SAFETY: the cursors of the keys cover 0..src.len() exactly once, within capacity.
        unsafe { base.add(*c).write(pext(x, rest) | u64::from(u) << 56) };
        *c += 1;
    }
    // SAFETY: every slot below src.len() was written.
    unsafe { out.set_len(src.len()) };
}

/// The bits of `x` at the positions of `mask`, gathered to the low bits (BMI2's PEXT).
fn pext_plain(x: u64, mask: u64) -> u64 {
    let (mut out, mut m, mut i) = (0u64, mask, 0);
    while m != 0 {
        let b = m.trailing_zeros();
        m &= m - 1;
        out |= (x >> b & 1) << i;
        i += 1;
    }
    out
}

/// Transposes `block` (at most [`BLOCK`] signatures) into bit vectors (`bits[b]`: bit `j` is
/// set when entry `j` has bit `b`; the low `chunks * CHUNK` bits, and if `keys` the top byte)
/// and fills, for each chunk `c` of [`CHUNK`] signature bits and each subset `s` of it,
/// `tables[c << CHUNK | s]` with the OR of the bit vectors of `s`. Slots past the block's end
/// are marked in every entry of chunk 0, so they never count as disjoint.
pub(super) fn build_tables(
    block: &[u64],
    chunks: usize,
    keys: bool,
    bits: &mut [[u64; 8]],
    tables: &mut [[u64; 8]],
) {
    let size = 1usize << CHUNK;
    let width = chunks * CHUNK;
    let low = width.div_ceil(8).min(8);
    let bytes = if keys { low + 1 } else { low };
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vbmi") {
        // SAFETY: the CPU has the features the function was compiled for.
        unsafe { transpose_avx512(block, low, keys, bits) };
    } else {
        transpose_plain(block, bytes, bits);
    }
    #[cfg(not(target_arch = "x86_64"))]
    transpose_plain(block, bytes, bits);
    let mut pad = [0u64; 8];
    for j in block.len()..BLOCK {
        pad[j / 64] |= 1 << (j % 64);
    }
    for c in 0..chunks {
        let t = &mut tables[c * size..(c + 1) * size];
        t[0] = if c == 0 { pad } else { [0; 8] };
        for s in 1..size {
            let low = s & (s - 1);
            if low == 0 {
                let b = c * CHUNK + s.trailing_zeros() as usize;
                let v = if b < 64 { bits[b] } else { [0; 8] };
                t[s] = if c == 0 {
                    std::array::from_fn(|w| v[w] | pad[w])
                } else {
                    v
                };
                continue;
            }
            let top = s & s.wrapping_neg();
            let (l, tp) = (t[low], t[top]);
            t[s] = std::array::from_fn(|w| l[w] | tp[w]);
        }
    }
}

/// The bit vectors of [`build_tables`], one bit at a time: the low `bytes` bytes when
/// `bytes < 8`, and the top byte (the sieve key) when `bytes` is one more than the low ones
/// (callers pass `low + 1` for it; `bytes >= 8` means all eight).
fn transpose_plain(block: &[u64], bytes: usize, bits: &mut [[u64; 8]]) {
    for v in bits.iter_mut() {
        *v = [0; 8];
    }
    let _ = bytes;
    for (j, &x) in block.iter().enumerate() {
        let (w, bit) = (j / 64, 1u64 << (j % 64));
        let mut m = x;
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            bits[b][w] |= bit;
        }
    }
}

/// The bit vectors of [`build_tables`] with AVX-512 (the low `low` bytes, and the top byte
/// if `keys`): for 64 signatures at a time, a byte permutation and a qword transpose put
/// byte `k` of all 64 in one register, whose bit `i` of every byte is then collected by a
/// shift and `vpmovb2m` into the word of bit `8k + i`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[allow(clippy::needless_range_loop)] // w, g, k index several arrays at once
fn transpose_avx512(block: &[u64], low: usize, keys: bool, bits: &mut [[u64; 8]]) {
    use std::arch::x86_64::*;
    // Output byte 8k + e is input byte 8e + k: qword k holds byte k of the 8 signatures.
    let idx: [u8; 64] = std::array::from_fn(|o| ((o % 8) * 8 + o / 8) as u8);
    // SAFETY: 64 bytes.
    let idx = unsafe { _mm512_loadu_si512(idx.as_ptr().cast()) };
    let key_byte = if keys && low < 8 { Some(7) } else { None };
    for w in 0..BLOCK / 64 {
        let lo = (w * 64).min(block.len());
        let hi = (w * 64 + 64).min(block.len());
        let mut buf = [0u64; 64];
        buf[..hi - lo].copy_from_slice(&block[lo..hi]);
        // tmp[g][k]: byte k of the signatures 8g..8g + 8 (of this word's 64).
        let mut tmp = [[0u64; 8]; 8];
        for g in 0..8 {
            // SAFETY: 8 u64 in and out.
            unsafe {
                let v = _mm512_loadu_si512(buf[8 * g..].as_ptr().cast());
                _mm512_storeu_si512(tmp[g].as_mut_ptr().cast(), _mm512_permutexvar_epi8(idx, v));
            }
        }
        for k in (0..low).chain(key_byte) {
            let y: [u64; 8] = std::array::from_fn(|g| tmp[g][k]);
            // SAFETY: 8 u64.
            let y = unsafe { _mm512_loadu_si512(y.as_ptr().cast()) };
            // Byte 8g + e of y is byte k of signature 8g + e.
            let mut shifted = y;
            for i in (0..8).rev() {
                // The top bit of each byte is bit i of the byte after shifting by 7 - i.
                bits[8 * k + i][w] = _mm512_movepi8_mask(shifted);
                shifted = _mm512_add_epi8(shifted, shifted);
            }
        }
    }
}

/// Sum, over the short buckets `u` within `open`, of the pairs (entry of the block, `y` of
/// bucket `u`) that share no bit: the chunk tables test the signatures, and the block's
/// sieve bits `loose` (those the trie leaf leaves free, bit vectors `keys`) are tested
/// against `u` as one extra vector per bucket.
pub(super) fn scan_leaf(
    tables: &[[u64; 8]],
    chunks: usize,
    keys: &[[u64; 8]],
    loose: u32,
    open: u32,
    short: &[u64],
    start: &[usize],
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vpopcntdq")
            && is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU has the features the function was compiled for.
            return unsafe { scan_leaf_avx512(tables, chunks, keys, loose, open, short, start) };
        }
        if is_x86_feature_detected!("avx2") {
            // SAFETY: as above.
            return unsafe { scan_leaf_avx2(tables, chunks, keys, loose, open, short, start) };
        }
    }
    scan_leaf_plain(tables, chunks, keys, loose, open, short, start)
}

macro_rules! scan_leaf_body {
    ($tables:expr, $chunks:expr, $keys:expr, $loose:expr, $open:expr, $short:expr, $start:expr) => {{
        let (tables, chunks, keys, loose, open, short, start): (
            &[[u64; 8]],
            usize,
            &[[u64; 8]],
            u32,
            u32,
            &[u64],
            &[usize],
        ) = ($tables, $chunks, $keys, $loose, $open, $short, $start);
        let mask = (1u64 << CHUNK) - 1;
        let mut total = 0u64;
        let mut u = open;
        loop {
            let ys = &short[start[u as usize]..start[u as usize + 1]];
            if !ys.is_empty() {
                let mut extra = [0u64; 8];
                let mut m = u & loose;
                while m != 0 {
                    let k = &keys[m.trailing_zeros() as usize];
                    m &= m - 1;
                    for w in 0..8 {
                        extra[w] |= k[w];
                    }
                }
                for &y in ys {
                    let mut acc = extra;
                    for c in 0..chunks {
                        let t = &tables[c << CHUNK | ((y >> (c * CHUNK)) & mask) as usize];
                        for w in 0..8 {
                            acc[w] |= t[w];
                        }
                    }
                    let ones: u32 = acc.iter().map(|w| w.count_ones()).sum();
                    total += u64::from(BLOCK as u32 - ones);
                }
            }
            if u == 0 {
                break;
            }
            u = (u - 1) & open;
        }
        total
    }};
}

fn scan_leaf_plain(
    tables: &[[u64; 8]],
    chunks: usize,
    keys: &[[u64; 8]],
    loose: u32,
    open: u32,
    short: &[u64],
    start: &[usize],
) -> u64 {
    scan_leaf_body!(tables, chunks, keys, loose, open, short, start)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn scan_leaf_avx2(
    tables: &[[u64; 8]],
    chunks: usize,
    keys: &[[u64; 8]],
    loose: u32,
    open: u32,
    short: &[u64],
    start: &[usize],
) -> u64 {
    scan_leaf_body!(tables, chunks, keys, loose, open, short, start)
}

/// [`scan_leaf`] with AVX-512: one register per block, `vpopcntq` for the count; the chunk
/// loop is unrolled for the chunk counts of the boards (up to 9).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,bmi2")]
fn scan_leaf_avx512(
    tables: &[[u64; 8]],
    chunks: usize,
    keys: &[[u64; 8]],
    loose: u32,
    open: u32,
    short: &[u64],
    start: &[usize],
) -> u64 {
    let f = match chunks {
        1 => scan_leaf_avx512_n::<1>,
        2 => scan_leaf_avx512_n::<2>,
        3 => scan_leaf_avx512_n::<3>,
        4 => scan_leaf_avx512_n::<4>,
        5 => scan_leaf_avx512_n::<5>,
        6 => scan_leaf_avx512_n::<6>,
        7 => scan_leaf_avx512_n::<7>,
        8 => scan_leaf_avx512_n::<8>,
        9 => scan_leaf_avx512_n::<9>,
        _ => return scan_leaf_avx512_n::<0>(tables, chunks, keys, loose, open, short, start),
    };
    f(tables, chunks, keys, loose, open, short, start)
}

/// [`scan_leaf_avx512`] for `C` chunks (`C = 0`: `chunks`, not unrolled).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,bmi2")]
fn scan_leaf_avx512_n<const C: usize>(
    tables: &[[u64; 8]],
    chunks: usize,
    keys: &[[u64; 8]],
    loose: u32,
    open: u32,
    short: &[u64],
    start: &[usize],
) -> u64 {
    use std::arch::x86_64::*;
    let chunks = if C == 0 { chunks } else { C };
    let mask = (1u64 << CHUNK) - 1;
    assert!(tables.len() >= chunks << CHUNK && keys.len() >= 8);
    let base = tables.as_ptr();
    let mut sum = _mm512_setzero_si512();
    let mut n = 0u64;
    let mut u = open;
    loop {
        let ys = &short[start[u as usize]..start[u as usize + 1]];
        if !ys.is_empty() {
            // SAFETY: every index is below chunks << CHUNK <= tables.len(), key bits below
            // 8 <= keys.len(); unaligned loads.
            unsafe {
                let mut extra = _mm512_setzero_si512();
                let mut m = u & loose;
                while m != 0 {
                    debug_assert!((m.trailing_zeros() as usize) < keys.len());
                    let k = keys.as_ptr().add(m.trailing_zeros() as usize);
                    m &= m - 1;
                    extra = _mm512_or_si512(extra, _mm512_loadu_si512(k.cast()));
                }
                for &y in ys {
                    debug_assert!(((chunks - 1) << CHUNK | (mask as usize)) < tables.len());
                    let mut acc = _mm512_or_si512(
                        extra,
                        _mm512_loadu_si512(base.add((y & mask) as usize).cast()),
                    );
                    for c in 1..chunks {
                        let t = base.add(c << CHUNK | ((y >> (c * CHUNK)) & mask) as usize);
                        acc = _mm512_or_si512(acc, _mm512_loadu_si512(t.cast()));
                    }
                    sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(acc));
                }
            }
            n += ys.len() as u64;
        }
        if u == 0 {
            break;
        }
        u = (u - 1) & open;
    }
    let ones = _mm512_reduce_add_epi64(sum) as u64;
    n * BLOCK as u64 - ones
}

#[cfg(test)]
mod tests {
    use super::super::Table;
    use super::*;

    #[test]
    fn placements_and_joins_agree() {
        // Every group of the 9-rank tables of n = 17, 18 placed in each quadrant, with
        // AVX-512 and without, and joined both ways.
        for n in [17, 18] {
            let g = Geometry::new(n);
            let table = Table::new(g);
            let mut x = 0x1234_5678_9abc_def1u64;
            for q in [
                Quad::NorthEast,
                Quad::SouthEast,
                Quad::NorthWest,
                Quad::SouthWest,
            ] {
                let win = g.window(matches!(q, Quad::NorthWest | Quad::SouthWest));
                for _ in 0..40 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let ranks = (x as u32) & ((1 << g.h) - 1);
                    let files = (x >> 32) as u32 & ((1 << g.e) - 1);
                    let group = table.group(ranks, files);
                    let (mut p1, mut p2) = (Placed::default(), Placed::default());
                    place_plain(g, win, q, group, &mut p1, true);
                    for (i, &e) in group.iter().enumerate() {
                        let p = g.place(q, e);
                        assert_eq!(
                            (p1.key[i], p1.sig[i], p1.s[i], p1.d[i]),
                            (win.key(&p), p.sig, p.s, p.d)
                        );
                    }
                    #[cfg(target_arch = "x86_64")]
                    if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("gfni") {
                        // SAFETY: the CPU has the features.
                        unsafe { place_avx512(g, win, q, group, &mut p2, true) };
                        assert_eq!(
                            (&p1.key, &p1.sig, &p1.s, &p1.d),
                            (&p2.key, &p2.sig, &p2.s, &p2.d)
                        );
                    }
                    let (mut o1, mut o2) = (vec![], vec![]);
                    join_plain(&p1, &p1, &mut o1);
                    join_pieces(&p1, &p1, &mut o2);
                    assert_eq!(o1, o2);
                }
            }
        }
    }

    #[test]
    fn transposes_agree() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let v: Vec<u64> = (0..512)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect();
        for (len, chunks) in [
            (512, 13),
            (511, 8),
            (64, 7),
            (65, 1),
            (1, 9),
            (300, 2),
            (0, 3),
        ] {
            let _ = chunks;
            let block = &v[..len];
            let mut t1 = vec![[7u64; 8]; 64];
            transpose_plain(block, 8, &mut t1);
            // Bit b of entry j is in the vector of bit b.
            for (j, &e) in block.iter().enumerate() {
                for (b, v) in t1.iter().enumerate() {
                    assert_eq!(v[j / 64] >> (j % 64) & 1, e >> b & 1);
                }
            }
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vbmi") {
                for (low, keys) in [(8, false), (4, true), (3, false), (7, true)] {
                    let mut t2 = vec![[7u64; 8]; 64];
                    // SAFETY: the CPU has the features.
                    unsafe { transpose_avx512(block, low, keys, &mut t2) };
                    for b in (0..8 * low).chain(if keys { 56..64 } else { 0..0 }) {
                        assert_eq!(t1[b], t2[b], "len={len} bit {b}");
                    }
                }
            }
        }
    }

    #[test]
    fn bucketing_and_scans_agree_on_every_instruction_set() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bits: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & x.rotate_left(29) & (u64::MAX >> (64 - bits))
        };
        for (la, lb, bits) in [
            (0, 9, 10),
            (30, 700, 38),
            (513, 40, 44),
            (1100, 1500, 23),
            (25, 1024, 5),
            (600, 600, 64),
            (5000, 3000, 38),
            (2100, 4500, 44),
        ] {
            let a: Vec<u64> = (0..la).map(|_| next(bits)).collect();
            let b: Vec<u64> = (0..lb).map(|_| next(bits)).collect();
            // One block, with the sieve keys in the top byte.
            let chunks = 56usize.div_ceil(CHUNK);
            let mut t = vec![[0u64; 8]; chunks << CHUNK];
            let mut bits = vec![[0u64; 8]; 64];
            let blk: Vec<u64> = a[..a.len().min(BLOCK)]
                .iter()
                .map(|&x| x & ((1 << 56) - 1))
                .collect();
            let keyed: Vec<u64> = blk
                .iter()
                .enumerate()
                .map(|(i, &x)| x | ((i as u64 * 37) % 16) << 56)
                .collect();
            // Bucketing with and without BMI2 agree.
            let (key, rest) = (0x0000_0300_0000_1008u64, 0x0000_00ff_00ff_f0f0u64);
            let (mut o1, mut s1, mut o2, mut s2) = (vec![], vec![], vec![], vec![]);
            bucket(&b, key, rest, &mut o1, &mut s1);
            bucket_with(&b, key, rest, &mut o2, &mut s2, pext_plain);
            assert_eq!((&o1, &s1), (&o2, &s2));
            assert_eq!(s1.len(), 17);
            for u in 0..16 {
                for &x in &o1[s1[u]..s1[u + 1]] {
                    assert_eq!(x & !((1 << 24) - 1), 0);
                }
                let want = b
                    .iter()
                    .filter(|&&x| pext_plain(x, key) == u as u64)
                    .count();
                assert_eq!(s1[u + 1] - s1[u], want);
            }
            // Short signatures with sieve key u (4 bits) in bucket u; the block's keys are
            // loose in bits 0 and 2, so pairs also clash on those.
            let ys: Vec<u64> = o1.iter().map(|&x| x & ((1 << 56) - 1)).collect();
            let want: u64 = (0..16usize)
                .filter(|u| u & 0b1010 == 0)
                .map(|u| {
                    let ys = &ys[s1[u]..s1[u + 1]];
                    keyed
                        .iter()
                        .map(|&x| {
                            let k = (x >> 56) as usize;
                            ys.iter()
                                .filter(|&&y| x & y & ((1 << 56) - 1) == 0 && k & u & 0b0101 == 0)
                                .count() as u64
                        })
                        .sum::<u64>()
                })
                .sum();
            build_tables(&keyed, chunks, true, &mut bits, &mut t);
            let keys = &bits[56..];
            let open = 0b0101;
            assert_eq!(
                scan_leaf_plain(&t, chunks, keys, 0b0101, open, &ys, &s1),
                want
            );
            assert_eq!(scan_leaf(&t, chunks, keys, 0b0101, open, &ys, &s1), want);
            #[cfg(target_arch = "x86_64")]
            if is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                assert_eq!(
                    unsafe { scan_leaf_avx2(&t, chunks, keys, 0b0101, open, &ys, &s1) },
                    want
                );
            }
        }
    }
}
