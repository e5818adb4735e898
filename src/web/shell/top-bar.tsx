import { Link, useNavigate } from 'react-router';
import { CircleUser, LogOut, Menu, Mic, Radio, ShieldCheck, Upload, User } from 'lucide-react';
import { useSession, useSignOut } from '@/web/session/use-session.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/web/components/ui/dropdown-menu.tsx';
import { NotificationBell } from '@/web/features/notifications/index.ts';
import { PremiumBadge } from '@/web/features/premium/index.ts';

/** The signed-in person's menu: who is signed in, their profile and their security settings. */
function UserMenu() {
  const { user } = useSession();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-9" aria-label="Account menu">
          <CircleUser className="size-5" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        {user && (
          <DropdownMenuLabel className="font-normal">
            <span className="block truncate font-medium">{user.display_name ?? user.email}</span>
            <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
          </DropdownMenuLabel>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <User aria-hidden="true" />
            Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings/security">
            <ShieldCheck aria-hidden="true" />
            Security
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings/scrobbling">
            <Radio aria-hidden="true" />
            Scrobbling
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function TopBar({ title, onOpenMenu }: { title: string; onOpenMenu: () => void }) {
  const { isArtist } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();

  const handleSignOut = () => {
    // Local sign-out happens even if the call fails; either way the visitor lands on /auth.
    signOut.mutateAsync().then(
      () => navigate('/auth', { replace: true }),
      () => navigate('/auth', { replace: true }),
    );
  };

  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-background/80 px-4 backdrop-blur-md supports-[backdrop-filter]:bg-background/65 md:px-8">
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open navigation"
        onClick={onOpenMenu}
      >
        <Menu className="size-5" aria-hidden="true" />
      </Button>
      <h1 className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight md:text-xl">
        {title}
      </h1>
      <div className="flex items-center gap-1.5 sm:gap-2">
        {isArtist && (
          <>
            <Button asChild variant="secondary" size="sm" className="h-9">
              <Link to="/upload" aria-label="Upload Music">
                <Upload aria-hidden="true" />
                <span className="hidden lg:inline">Upload Music</span>
              </Link>
            </Button>
            <Button asChild variant="secondary" size="sm" className="h-9">
              <Link to="/podcast-upload" aria-label="Upload Podcast">
                <Mic aria-hidden="true" />
                <span className="hidden lg:inline">Upload Podcast</span>
              </Link>
            </Button>
          </>
        )}
        <PremiumBadge />
        <NotificationBell />
        <UserMenu />
        <Button
          variant="outline"
          size="sm"
          className="h-9"
          onClick={handleSignOut}
          disabled={signOut.isPending}
          aria-label="Sign Out"
        >
          <LogOut aria-hidden="true" />
          <span className="hidden sm:inline">Sign Out</span>
        </Button>
      </div>
    </header>
  );
}
