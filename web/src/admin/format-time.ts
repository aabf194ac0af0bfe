/** A stored ISO time as the reader's locale writes it; an absent one as a dash. */
export const formatTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
