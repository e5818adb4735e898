import { useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useSession } from '@/web/session/use-session.ts';
import { navGroups } from '@/web/shell/screens.ts';
import { initial } from '@/web/lib/format.ts';
import { cn } from '@/web/components/ui/cn.ts';
import { BrandMark, BrandName } from '@/web/components/brand.tsx';
import { Badge } from '@/web/components/ui/badge.tsx';
import { CreatePlaylistDialog, PLAYLIST_TOAST } from '@/web/features/library/index.ts';
import { playlistMessages } from '@/core/validation/playlist.rules.ts';

const entryClass =
  'group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground transition-colors outline-none hover:bg-sidebar-accent/60 hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60';
const activeClass =
  'bg-sidebar-accent text-sidebar-accent-foreground shadow-[inset_3px_0_0_var(--primary)]';

export function AppSidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { user, isArtist, isAdmin, isPendingArtist } = useSession();
  const groups = navGroups.filter((g) => (!g.artistOnly || isArtist) && (!g.adminOnly || isAdmin));
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);

  return (
    <div className="flex h-full flex-col bg-sidebar">
      <Link
        to="/"
        onClick={onNavigate}
        className="flex items-center gap-2.5 px-5 py-5 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
        aria-label="Canto home"
      >
        <BrandMark />
        <BrandName />
      </Link>

      <nav aria-label="Sidebar" className="scrollbar-thin flex-1 overflow-y-auto px-3 pb-4">
        {groups.map((group) => (
          <div key={group.id} className="mt-4 first:mt-0">
            <h2
              id={`nav-${group.id}`}
              className="px-3 pb-1.5 text-[0.7rem] font-semibold tracking-wider text-muted-foreground uppercase"
            >
              {group.label}
            </h2>
            <ul aria-labelledby={`nav-${group.id}`} className="flex flex-col gap-0.5">
              {group.entries.map((entry) => {
                const Icon = entry.icon;
                const content = (
                  <>
                    <Icon
                      className="size-4 shrink-0 opacity-80 group-hover:opacity-100"
                      aria-hidden="true"
                    />
                    <span className="truncate">{entry.label}</span>
                  </>
                );
                return (
                  <li key={`${group.id}:${entry.label}`}>
                    {entry.action ? (
                      <button
                        type="button"
                        aria-haspopup="dialog"
                        onClick={() => setCreating(true)}
                        className={cn(entryClass, 'w-full text-left')}
                      >
                        {content}
                      </button>
                    ) : (
                      <NavLink
                        to={entry.to}
                        end
                        onClick={onNavigate}
                        className={({ isActive }) => cn(entryClass, isActive && activeClass)}
                      >
                        {content}
                      </NavLink>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>

      {/* Spec §2: the sidebar's Create Playlist is the /playlists dialog, over any screen. */}
      <CreatePlaylistDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(playlist) => {
          onNavigate?.();
          // The listener stays where they were; the toast offers the new playlist.
          toast.success(playlistMessages.created, {
            id: PLAYLIST_TOAST,
            description: playlist.title,
            action: { label: 'Open', onClick: () => void navigate(`/playlist/${playlist.id}`) },
          });
        }}
      />

      {user && (
        <div className="flex items-center gap-3 border-t border-sidebar-border px-4 py-4">
          <span
            aria-hidden="true"
            className="brand-gradient flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white"
          >
            {initial(user.display_name ?? user.email)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium">{user.display_name ?? user.email}</p>
            <p className="truncate text-xs text-muted-foreground">{user.email}</p>
          </div>
          {isAdmin ? (
            <Badge variant="secondary">Admin</Badge>
          ) : isArtist ? (
            <Badge variant="secondary">Artist</Badge>
          ) : isPendingArtist ? (
            <Badge variant="outline" title="Your artist request is awaiting admin approval">
              Pending
            </Badge>
          ) : null}
        </div>
      )}
    </div>
  );
}
