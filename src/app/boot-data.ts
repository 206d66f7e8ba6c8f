import { BOOT_DATA_ID, type BootData } from '../../core/boot.ts';

/** The boot data of a server-rendered page (core/boot.ts), or null on any other page. */
export function readBootData(): BootData | null {
  const element = document.getElementById(BOOT_DATA_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as BootData;
  } catch {
    return null;
  }
}
