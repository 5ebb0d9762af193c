//! main.rs — embedding kernforge from Rust, without crates: the C ABI's few parts used here are
//! declared below, then a 2x3 @ 3x2 float32 matmul and a relu of it run on one device and are
//! checked against the same product computed here with three plain loops.
//!
//!   example_rust [device]       device: "cpu" (the default), "opencl", "xpu:1", ...
//!
//! Built with plain rustc against libkernforge (build.sh in this folder):
//!   rustc -O --edition 2021 -L <libdir> -l dylib=kernforge main.rs -o example_rust
//! Exit status 0 when every value is right; otherwise 1, after printing the failing call, its
//! status and kf_last_error_message().

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_void};
use std::process::ExitCode;

// ---- The C ABI (kernforge.h, kernforge/types.h), as much of it as this program uses. ----

/// kf_status_t: a C enum held in 32 bits; KF_OK is 0.
type KfStatus = i32;
const KF_OK: KfStatus = 0;
/// kf_dtype_t: a C enum held in 32 bits; KF_FLOAT32 is 0.
const KF_FLOAT32: i32 = 0;

/// kf_device_t.
#[repr(C)]
#[derive(Clone, Copy)]
struct KfDevice {
    device_type: i32, // KF_DEVICE_*: 1 is the CPU
    index: i32,
}

/// kf_tensor_t: an opaque handle (a number the runtime hands out, never dereferenced).
#[repr(C)]
struct KfTensorS {
    _opaque: [u8; 0],
}
type KfTensor = *mut KfTensorS;

extern "C" {
    fn kf_last_error_message() -> *const c_char;
    fn kf_status_name(status: KfStatus) -> *const c_char;
    fn kf_version() -> *const c_char;
    fn kf_init(options: *const c_void) -> KfStatus; // NULL: the defaults
    fn kf_device_parse(text: *const c_char, out: *mut KfDevice) -> KfStatus;
    fn kf_device_name(device: KfDevice, buf: *mut c_char, cap: usize) -> KfStatus;
    fn kf_tensor_from_data(host_data: *const c_void, shape: *const i64, ndim: i32, dtype: i32,
                           device: KfDevice, out: *mut KfTensor) -> KfStatus;
    fn kf_tensor_ndim(t: KfTensor, out: *mut i32) -> KfStatus;
    fn kf_tensor_shape(t: KfTensor, out: *mut *const i64) -> KfStatus;
    fn kf_tensor_copy_to_host(t: KfTensor, dst: *mut c_void, bytes: usize) -> KfStatus;
    fn kf_tensor_release(t: KfTensor) -> KfStatus;
    fn kf_matmul(a: KfTensor, b: KfTensor, out: *mut KfTensor) -> KfStatus;
    fn kf_relu(a: KfTensor, out: *mut KfTensor) -> KfStatus;
}

// ---- A thin safe layer: statuses become Results, tensors release themselves. ----

/// Ok for KF_OK, else the call's name, the status and the runtime's message for this thread.
fn check(call: &str, status: KfStatus) -> Result<(), String> {
    if status == KF_OK {
        return Ok(());
    }
    // Both return static or thread-local text that is never NULL.
    let (name, message) = unsafe {
        (CStr::from_ptr(kf_status_name(status)), CStr::from_ptr(kf_last_error_message()))
    };
    Err(format!("{} failed: {}: {}", call, name.to_string_lossy(), message.to_string_lossy()))
}

/// One reference to a tensor, released when dropped.
struct Tensor(KfTensor);

impl Drop for Tensor {
    fn drop(&mut self) {
        unsafe { kf_tensor_release(self.0) };
    }
}

impl Tensor {
    fn from_data(data: &[f32], shape: &[i64], device: KfDevice) -> Result<Tensor, String> {
        assert_eq!(data.len() as i64, shape.iter().product::<i64>());
        let mut out: KfTensor = std::ptr::null_mut();
        let status = unsafe {
            kf_tensor_from_data(data.as_ptr() as *const c_void, shape.as_ptr(), shape.len() as i32,
                                KF_FLOAT32, device, &mut out)
        };
        check("kf_tensor_from_data", status).map(|_| Tensor(out))
    }

    fn shape(&self) -> Result<Vec<i64>, String> {
        let (mut ndim, mut dims): (i32, *const i64) = (0, std::ptr::null());
        check("kf_tensor_ndim", unsafe { kf_tensor_ndim(self.0, &mut ndim) })?;
        check("kf_tensor_shape", unsafe { kf_tensor_shape(self.0, &mut dims) })?;
        // ndim int64 values, valid while the tensor lives.
        Ok(unsafe { std::slice::from_raw_parts(dims, ndim as usize) }.to_vec())
    }

    fn to_vec(&self, numel: usize) -> Result<Vec<f32>, String> {
        let mut values = vec![0f32; numel];
        let bytes = numel * std::mem::size_of::<f32>();
        let status =
            unsafe { kf_tensor_copy_to_host(self.0, values.as_mut_ptr() as *mut c_void, bytes) };
        check("kf_tensor_copy_to_host", status).map(|_| values)
    }
}

/// Calls a one-result op, `op(args..., &out)`, and wraps its result.
fn result_of(call: &str, op: impl FnOnce(*mut KfTensor) -> KfStatus) -> Result<Tensor, String> {
    let mut out: KfTensor = std::ptr::null_mut();
    check(call, op(&mut out)).map(|_| Tensor(out))
}

// ---- The program. ----

const M: usize = 2;
const K: usize = 3;
const N: usize = 2;

/// The reference: a @ b (row-major) with three loops.
fn reference(a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut c = vec![0f32; M * N];
    for i in 0..M {
        for j in 0..N {
            c[i * N + j] = (0..K).map(|k| a[i * K + k] * b[k * N + j]).sum();
        }
    }
    c
}

/// Checks that `t` is an M x N tensor holding `want`, and prints it.
fn expect(label: &str, t: &Tensor, want: &[f32]) -> Result<(), String> {
    let shape = t.shape()?;
    if shape != [M as i64, N as i64] {
        return Err(format!("{} has shape {:?}, expected [{}, {}]", label, shape, M, N));
    }
    let got = t.to_vec(M * N)?;
    println!("{:<12} = {:?}", label, got);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if (g - w).abs() > 1e-5 {
            return Err(format!("{}[{}] = {}, expected {}", label, i, g, w));
        }
    }
    Ok(())
}

fn device(text: &str) -> Result<(KfDevice, String), String> {
    let c_text = CString::new(text).map_err(|_| format!("bad device name {:?}", text))?;
    let mut device = KfDevice { device_type: 0, index: 0 };
    check("kf_device_parse", unsafe { kf_device_parse(c_text.as_ptr(), &mut device) })?;
    let mut name = [0 as c_char; 64];
    check("kf_device_name", unsafe { kf_device_name(device, name.as_mut_ptr(), name.len()) })?;
    let name = unsafe { CStr::from_ptr(name.as_ptr()) }.to_string_lossy().into_owned();
    Ok((device, name))
}

fn run(device_text: &str) -> Result<(), String> {
    // Starts the runtime now (it would on first use): the plugins load, so a device type one of
    // them brings ("opencl") parses.
    check("kf_init", unsafe { kf_init(std::ptr::null()) })?;
    let (device, name) = device(device_text)?;
    let version = unsafe { CStr::from_ptr(kf_version()) }.to_string_lossy();
    println!("kernforge {}, device {}: a (2x3) @ b (3x2), then relu", version, name);

    let a_data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let b_data = [1.0f32, -1.0, 2.0, 0.0, -1.0, 0.5];
    let a = Tensor::from_data(&a_data, &[M as i64, K as i64], device)?;
    let b = Tensor::from_data(&b_data, &[K as i64, N as i64], device)?;
    let mm = result_of("kf_matmul", |out| unsafe { kf_matmul(a.0, b.0, out) })?;
    let relu = result_of("kf_relu", |out| unsafe { kf_relu(mm.0, out) })?;

    let want_mm = reference(&a_data, &b_data);
    let want_relu: Vec<f32> = want_mm.iter().map(|x| x.max(0.0)).collect();
    expect("a @ b", &mm, &want_mm)?;
    expect("relu(a @ b)", &relu, &want_relu)?;
    println!("ok: both match the values computed by hand");
    Ok(())
}

fn main() -> ExitCode {
    let device_text = std::env::args().nth(1).unwrap_or_else(|| "cpu".to_string());
    match run(&device_text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("main.rs: {}", message);
            ExitCode::FAILURE
        }
    }
}
