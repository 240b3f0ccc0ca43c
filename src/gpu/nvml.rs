//! The SM clock, read through NVML, loaded at run time (`libnvidia-ml.so.1`, which the driver
//! installs). Read only: this module binds `nvmlInit_v2`, the device lookup by PCI bus id,
//! `nvmlDeviceGetClockInfo` and `nvmlShutdown`, and nothing that sets a clock, a power limit
//! or any other setting of the card.
//!
//! cudarc 0.19.10 has no NVML binding, and the `nvml-wrapper` crate would bring a second
//! `libloading` and a procedural-macro tree for four calls, so the four are bound here. A
//! missing library or a failing call gives `None`: the run then records no clocks and warms up
//! by count alone, as before; nothing panics.

use std::ffi::{CString, c_char, c_int, c_uint, c_void};

/// `nvmlReturn_t` success.
const NVML_SUCCESS: c_int = 0;
/// `nvmlClockType_t` for the SM clock.
const NVML_CLOCK_SM: c_uint = 1;

type Device = *mut c_void;
type Init = unsafe extern "C" fn() -> c_int;
type Shutdown = unsafe extern "C" fn() -> c_int;
type ByPciBusId = unsafe extern "C" fn(*const c_char, *mut Device) -> c_int;
type ClockInfo = unsafe extern "C" fn(Device, c_uint, *mut c_uint) -> c_int;

/// An initialised NVML with the handle of one device.
pub(crate) struct Nvml {
    // Kept alive for as long as the function pointers below are used.
    _lib: libloading::Library,
    shutdown: Shutdown,
    clock_info: ClockInfo,
    device: Device,
}

impl Nvml {
    /// Opens NVML and finds the device whose PCI bus id CUDA reports (`0000:19:00.0`), so that
    /// the clock read is the clock of the device the suite runs on, whatever the numbering.
    pub(crate) fn open(pci_bus_id: &str) -> Option<Nvml> {
        // SAFETY: loading the driver's NVML library runs its initialisers, which have no
        // preconditions; every symbol is typed as nvml.h declares it.
        unsafe {
            let lib = libloading::Library::new("libnvidia-ml.so.1").ok()?;
            let init: Init = *lib.get::<Init>(b"nvmlInit_v2").ok()?;
            let shutdown: Shutdown = *lib.get::<Shutdown>(b"nvmlShutdown").ok()?;
            let by_pci: ByPciBusId = *lib.get::<ByPciBusId>(b"nvmlDeviceGetHandleByPciBusId_v2").ok()?;
            let clock_info: ClockInfo = *lib.get::<ClockInfo>(b"nvmlDeviceGetClockInfo").ok()?;
            if init() != NVML_SUCCESS {
                return None;
            }
            let id = CString::new(pci_bus_id).ok()?;
            let mut device: Device = std::ptr::null_mut();
            if by_pci(id.as_ptr(), &mut device) != NVML_SUCCESS || device.is_null() {
                shutdown();
                return None;
            }
            Some(Nvml { _lib: lib, shutdown, clock_info, device })
        }
    }

    /// The SM clock now, in MHz.
    pub(crate) fn sm_mhz(&self) -> Option<u32> {
        let mut mhz: c_uint = 0;
        // SAFETY: `device` came from NVML and stays valid until shutdown; one uint is written.
        let rc = unsafe { (self.clock_info)(self.device, NVML_CLOCK_SM, &mut mhz) };
        (rc == NVML_SUCCESS && mhz > 0).then_some(mhz)
    }
}

impl Drop for Nvml {
    fn drop(&mut self) {
        // SAFETY: NVML was initialised in `open`; shutdown balances that one init.
        unsafe { (self.shutdown)() };
    }
}
